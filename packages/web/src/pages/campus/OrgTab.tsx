import {
  EditOutlined,
  GlobalOutlined,
  MailOutlined,
  PhoneOutlined,
  EnvironmentOutlined,
} from '@ant-design/icons';
import { ORG_LOGO_MAX_BYTES, updateOrgBody, type OrgRow } from '@se/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Descriptions, Flex, Result, Spin, Typography } from 'antd';
import { useState } from 'react';
import { getOrg, orgLogoUrl, updateOrg, uploadOrgLogo } from '../../api/org.ts';
import { ImageUploadButton, useStoredImage } from '../../components/StoredImage.tsx';
import { FormModal } from '../../components/FormModal.tsx';
import { loadOrThrow } from '../../components/feedback.ts';
import { valuesOf, type FormField } from '../../components/form-fields.tsx';
import { campusKey } from './keys.ts';
import { useCampusRight } from './use-campus-right.ts';

type Values = Pick<OrgRow, 'name' | 'slogan' | 'introduction' | 'org_url' | 'email' | 'address' | 'contact'>;

const FIELDS: FormField<Values>[] = [
  { name: 'name', label: '名称', span: 12, required: true, maxLength: 60 },
  { name: 'slogan', label: '标语', span: 12, maxLength: 100 },
  { name: 'introduction', label: '简介', kind: 'textarea', maxLength: 2000 },
  { name: 'org_url', label: '网址', span: 12, maxLength: 300, placeholder: 'https://' },
  { name: 'email', label: '邮箱', span: 12, maxLength: 254 },
  { name: 'contact', label: '联系方式', span: 12, maxLength: 100 },
  { name: 'address', label: '地址', span: 12, maxLength: 200 },
];

const orgKey = [...campusKey, 'org'] as const;

/** Links only to web addresses: a stored ftp/rtsp address is shown as text. */
const safeHref = (url: string) => (/^https?:\/\//i.test(url) ? url : undefined);

/** The logo through the token-carrying fetch; the first character of the name until it loads. */
function Logo({ org }: { org: OrgRow }) {
  const url = useStoredImage(org.logo, () => orgLogoUrl(org.id, org.logo));
  return (
    <Avatar
      size={72}
      shape="square"
      src={org.logo ? url : undefined}
      alt={`${org.name}标志`}
      style={{ background: '#1677ff', fontSize: 32 }}
    >
      {Array.from(org.name)[0]}
    </Avatar>
  );
}

/** 智慧园区 (/smart-org): the organisation as its people see it; its manager edits it. */
export function OrgTab() {
  const { canManage } = useCampusRight();
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const org = useQuery({ queryKey: orgKey, queryFn: () => loadOrThrow(() => getOrg()) });
  if (org.isLoading) return <Spin style={{ display: 'block', padding: 48 }} />;
  if (!org.data) return <Result status="warning" title="无法加载组织信息" subTitle={org.error?.message} />;
  const o = org.data;
  const href = safeHref(o.org_url);
  return (
    <>
      <Flex gap={16} align="center" wrap style={{ marginBottom: 16 }}>
        <Logo org={o} />
        <div style={{ flex: 1, minWidth: 200 }}>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {o.name}
          </Typography.Title>
          {o.slogan && <Typography.Text type="secondary">{o.slogan}</Typography.Text>}
        </div>
        {canManage && (
          <Flex gap={8} wrap>
            <ImageUploadButton
              maxBytes={ORG_LOGO_MAX_BYTES}
              send={(file) => uploadOrgLogo(o.id, file)}
              success="标志已更新"
              onDone={(data) => client.setQueryData(orgKey, data)}
            >
              上传标志
            </ImageUploadButton>
            <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
              编辑组织信息
            </Button>
          </Flex>
        )}
      </Flex>
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', maxWidth: 860 }}>
        {o.introduction || <Typography.Text type="secondary">暂无简介</Typography.Text>}
      </Typography.Paragraph>
      <Descriptions column={{ xs: 1, sm: 1, md: 2 }} size="small" style={{ maxWidth: 860 }}>
        <Descriptions.Item
          label={
            <>
              <PhoneOutlined /> 联系方式
            </>
          }
        >
          {o.contact || '—'}
        </Descriptions.Item>
        <Descriptions.Item
          label={
            <>
              <MailOutlined /> 邮箱
            </>
          }
        >
          {o.email || '—'}
        </Descriptions.Item>
        <Descriptions.Item
          label={
            <>
              <EnvironmentOutlined /> 地址
            </>
          }
        >
          {o.address || '—'}
        </Descriptions.Item>
        <Descriptions.Item
          label={
            <>
              <GlobalOutlined /> 网址
            </>
          }
        >
          {href ? (
            <Typography.Link href={href} target="_blank" rel="noopener noreferrer">
              {o.org_url}
            </Typography.Link>
          ) : (
            o.org_url || '—'
          )}
        </Descriptions.Item>
      </Descriptions>
      {editing && (
        <FormModal
          title="编辑组织信息"
          width={640}
          name="org"
          schema={updateOrgBody}
          initialValues={valuesOf(o, [
            'name',
            'slogan',
            'introduction',
            'org_url',
            'email',
            'address',
            'contact',
          ])}
          fields={FIELDS}
          submit={(v: Values) => updateOrg({ id: o.id, ...v })}
          success="组织信息已保存"
          onSaved={(row) => client.setQueryData(orgKey, row)}
          onClosed={() => setEditing(false)}
        />
      )}
    </>
  );
}
