import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { ATTENDANCE_API, EMPLOYEE_STATUS, addEmployeeBody, type EmployeeRow } from '@se/core';
import { Button, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { addEmployee, deleteEmployee, listEmployees, updateEmployee } from '../../api/attendance.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import {
  ListView,
  RowActions,
  select,
  text,
  useDialog,
  useListQuery,
  type FilterField,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { queueExport, useGoTo } from '../downloads/export-toast.tsx';
import { ImportDialog, type ImportTarget } from '../devices/ImportDialog.tsx';
import { DepartmentSelect } from './DepartmentSelect.tsx';
import { useRefreshDepartments } from './departments.ts';

interface Filters {
  keywords: string;
  department: number | undefined;
  status: 1 | 2 | undefined;
}

/** The department filter: a tree pick, kept in the URL as its id; includes sub-departments. */
const department: FilterField<number | undefined> = {
  initial: undefined,
  instant: true,
  encode: (v) => (v === undefined ? undefined : String(v)),
  decode: (s) => (/^\d+$/.test(s) ? Number(s) : undefined),
  render: ({ value, onChange, mobile }) => (
    <DepartmentSelect
      value={value}
      onChange={onChange}
      allowClear
      placeholder="部门（含下级）"
      style={{ width: mobile ? '100%' : 200 }}
    />
  ),
};

const FILTERS: FilterFields<Filters> = {
  keywords: text({ placeholder: '姓名、工号、手机号、卡号', width: 220 }),
  department,
  status: select({
    placeholder: '状态',
    width: 110,
    options: [
      { value: 1, label: EMPLOYEE_STATUS[1] },
      { value: 2, label: EMPLOYEE_STATUS[2] },
    ],
  }),
};

const queryOf = (f: Filters) => ({
  keywords: f.keywords.trim() || undefined,
  department_id: f.department,
  status: f.status,
});

const StatusTag = ({ status }: { status: number }) =>
  status === 1 ? <Tag color="green">在职</Tag> : <Tag>离职</Tag>;

const COLUMNS: ListColumn<EmployeeRow>[] = [
  { title: '工号', dataIndex: 'number', width: 110, fixed: 'left', card: false },
  { title: '姓名', dataIndex: 'name', width: 100, card: false },
  { title: '部门', dataIndex: 'department_name', width: 140, ellipsis: true },
  { title: '职位', dataIndex: 'position', width: 110, ellipsis: true, from: 'lg' },
  { title: '手机号', dataIndex: 'phone', width: 130, from: 'lg' },
  { title: '卡号', dataIndex: 'badge_no', width: 120, from: 'xl' },
  { title: '人脸ID', dataIndex: 'face_id', width: 120, from: 'xl' },
  {
    title: '入职日期',
    dataIndex: 'hire_date',
    width: 110,
    from: 'lg',
    render: (v: string | null) => v ?? '—',
  },
  {
    title: '关联账号',
    dataIndex: 'user_name',
    width: 120,
    ellipsis: true,
    from: 'xl',
    render: (v: string) => v || '—',
  },
  { title: '状态', dataIndex: 'status', width: 80, render: (s: number) => <StatusTag status={s} /> },
];

const IMPORT: ImportTarget = {
  label: '员工',
  unit: '名',
  template: ATTENDANCE_API.importTemplate,
  upload: ATTENDANCE_API.importEmployees,
  fields: {
    number: '工号',
    name: '姓名',
    department: '部门',
    position: '职位',
    phone: '手机号',
    id_card: '身份证号',
    badge_no: '卡号',
    face_id: '人脸ID',
    hire_date: '入职日期',
    status: '状态',
  },
};

interface Values {
  department_id?: number;
  number: string;
  name: string;
  position?: string;
  phone?: string;
  id_card?: string;
  badge_no?: string;
  face_id?: string;
  hire_date?: Dayjs | null;
  status: number;
  user_id?: number;
}

function EmployeeDialog({ employee, onSaved, onClosed }: DialogProps<{ employee: EmployeeRow | null }>) {
  return (
    <FormModal<Values, EmployeeRow>
      title={employee ? `编辑员工：${employee.name}` : '新增员工'}
      width={640}
      schema={addEmployeeBody}
      initialValues={
        employee
          ? {
              ...employee,
              hire_date: employee.hire_date ? dayjs(employee.hire_date) : null,
              user_id: employee.user_id ?? undefined,
            }
          : { number: '', name: '', status: 1 }
      }
      fields={[
        { name: 'number', label: '工号', required: true, maxLength: 32, span: 12 },
        { name: 'name', label: '姓名', required: true, maxLength: 50, span: 12 },
        {
          name: 'department_id',
          label: '部门',
          required: true,
          span: 12,
          rules: [{ required: true, message: '请选择部门' }],
          render: () => <DepartmentSelect />,
        },
        { name: 'position', label: '职位', maxLength: 50, span: 12 },
        { name: 'phone', label: '手机号', maxLength: 20, span: 12 },
        { name: 'id_card', label: '身份证号', maxLength: 18, span: 12 },
        { name: 'badge_no', label: '卡号', maxLength: 32, span: 12, extra: '考勤机刷卡识别的卡号' },
        { name: 'face_id', label: '人脸ID', maxLength: 64, span: 12, extra: '考勤机人脸识别的编号' },
        { name: 'hire_date', label: '入职日期', kind: 'date', rules: [], span: 12 },
        {
          name: 'status',
          label: '状态',
          kind: 'select',
          span: 12,
          options: [
            { value: 1, label: '在职' },
            { value: 2, label: '离职' },
          ],
          extra: '离职员工的打卡和考勤记录保留',
        },
        {
          name: 'user_id',
          label: '关联账号ID',
          kind: 'number',
          span: 12,
          props: { min: 1, precision: 0 },
          extra: '员工登录控制台的账号（用户管理中的ID）；扫码巡检时记为该员工本人',
        },
      ]}
      submit={(v) => {
        const body = {
          ...v,
          department_id: v.department_id!,
          hire_date: v.hire_date ? v.hire_date.format('YYYY-MM-DD') : '',
          user_id: v.user_id ?? 0,
        };
        return employee ? updateEmployee({ id: employee.id, ...body }) : addEmployee(body);
      }}
      errorField={(code, message) =>
        message.includes('账号') ? 'user_id' : code === 409 ? 'number' : undefined
      }
      success={employee ? '员工已保存' : '员工已添加'}
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}

/** /ci-employee: the organisation's employees, searched by text, department (with sub-departments) and status. */
export function EmployeesTab() {
  const mobile = useIsMobile();
  const dialog = useDialog<EmployeeRow | 'new'>();
  const importing = useDialog<true>();
  const refreshTree = useRefreshDepartments();
  const [exporting, setExporting] = useState(false);
  const goTo = useGoTo();
  const list = useListQuery({
    key: ['attendance', 'employees'],
    filters: FILTERS,
    param: 'emp_',
    load: (f, paging) => listEmployees({ ...queryOf(f), ...paging }),
  });
  const refresh = () => {
    list.refresh();
    refreshTree();
  };

  return (
    <>
      <ListView
        list={list}
        add={{ label: '新增员工', onClick: () => dialog.open('new') }}
        listActions={
          <>
            <Button icon={<UploadOutlined />} onClick={() => importing.open(true)}>
              导入
            </Button>
            <Button
              icon={<DownloadOutlined />}
              loading={exporting}
              onClick={async () => {
                setExporting(true);
                await queueExport('attendance-employees', queryOf(list.applied), goTo);
                setExporting(false);
              }}
            >
              导出
            </Button>
          </>
        }
        columns={COLUMNS}
        rowKey="id"
        empty={list.filtered ? '没有符合条件的员工' : '暂无员工，点击“新增员工”或“导入”添加'}
        cardTitle={(e) => `${e.name}（${e.number}）`}
        cardExtra={(e) => <StatusTag status={e.status} />}
        actionsWidth={150}
        actions={(e) => (
          <RowActions
            wrap={mobile}
            edit={() => dialog.open(e)}
            remove={{
              title: '删除员工',
              question: `确定删除员工 ${e.name}（${e.number}）吗？员工离职请改为“离职”状态，删除仅用于误录入。`,
              call: () => deleteEmployee(e.id),
              onDeleted: refresh,
            }}
          />
        )}
      />
      {dialog.target && (
        <EmployeeDialog
          employee={dialog.target === 'new' ? null : dialog.target}
          onSaved={refresh}
          onClosed={dialog.close}
        />
      )}
      {importing.target && <ImportDialog kind={IMPORT} onImported={refresh} onClosed={importing.close} />}
    </>
  );
}
