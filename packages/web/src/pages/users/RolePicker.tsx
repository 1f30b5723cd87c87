import { Checkbox, Flex, Tag, Tooltip } from 'antd';
import { TagList } from '../../components/TagList.tsx';
import {
  roleOptions,
  roleTags,
  SERVICE_OPTIONS,
  serviceLabels,
  toggleRole,
  toggleService,
} from './role-picker.ts';

/**
 * The roles of a user as a checkbox per role, bound to a permission number (antd Form
 * passes value/onChange). Roles are bitmasks, so a box is ticked when every bit of its role
 * is set; composite roles (OEM 127) therefore tick and untick with their parts.
 */
export function RolePicker({
  id,
  value = 0,
  onChange,
  callerMask,
  callerBm = false,
  targetBm,
  self,
}: {
  id?: string;
  value?: number;
  onChange?: (mask: number) => void;
  callerMask: number;
  /** The caller is a backend manager (its 127 bits are not an OEM's). */
  callerBm?: boolean;
  /** The edited account is (or would be) a backend manager; undefined: not known. */
  targetBm?: boolean;
  /** The caller's own row: roles are shown but cannot change. */
  self: boolean;
}) {
  return (
    <Flex id={id} wrap gap="small" role="group" aria-label="角色">
      {roleOptions(callerMask, value, self, callerBm, targetBm).map(({ role, checked, disabled }) => (
        <Checkbox
          key={role.name}
          checked={checked}
          disabled={disabled}
          onChange={(e) => onChange?.(toggleRole(callerMask, value, role.name, e.target.checked, callerBm))}
          style={{ marginInlineStart: 0, minWidth: 132 }}
        >
          {role.label}
        </Checkbox>
      ))}
    </Flex>
  );
}

/** The two weekly-report flags of a services number; other service bits are kept. */
export function ServicePicker({
  id,
  value = 0,
  onChange,
  disabled,
}: {
  id?: string;
  value?: number;
  onChange?: (services: number) => void;
  disabled: boolean;
}) {
  return (
    <Flex id={id} wrap gap="small" role="group" aria-label="服务">
      {SERVICE_OPTIONS.map((s) => (
        <Checkbox
          key={s.key}
          checked={(value & s.bit) === s.bit}
          disabled={disabled}
          onChange={(e) => onChange?.(toggleService(value, s.bit, e.target.checked))}
        >
          {s.label}
        </Checkbox>
      ))}
    </Flex>
  );
}

/** A row's roles as tags, most specific first; the rest fold into "+N" with a tooltip. */
export function RoleTags({ mask, bm }: { mask: number; /** The row's backend_manager. */ bm?: boolean }) {
  const { shown, rest } = roleTags(mask, undefined, bm);
  return (
    <TagList labels={shown} color="blue" empty={<Tag>无角色</Tag>}>
      {rest.length > 0 && (
        <Tooltip title={rest.join('、')}>
          <Tag style={{ marginInlineEnd: 0, cursor: 'default' }}>+{rest.length}</Tag>
        </Tooltip>
      )}
    </TagList>
  );
}

export function ServiceTags({ services }: { services: number }) {
  return <TagList labels={serviceLabels(services)} color="green" empty={<span>—</span>} />;
}
