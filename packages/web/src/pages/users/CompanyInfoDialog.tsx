import { updateInfoBody, type UserInfo, type UserRow } from '@se/core';
import { getUserInfo } from '../../api/user.ts';
import { updateUserInfoOf } from '../../api/users.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { companyFields } from '../../components/contact-fields.ts';

interface CompanyForm {
  company_name: string;
  company_address: string;
}

const FIELDS = companyFields<CompanyForm>();

/** 公司信息 of one user (get-info / update-info with its user_id). */
export function CompanyInfoDialog({
  user,
  onSaved,
  onClosed,
}: DialogProps<{
  user: UserRow;
}>) {
  return (
    <FormModal
      title={`公司信息 - ${user.user_name}`}
      width={560}
      name="company-info"
      fields={FIELDS}
      schema={updateInfoBody}
      load={{
        queryKey: ['users', 'info', user.id],
        queryFn: () => getUserInfo(user.id),
        values: (info: UserInfo) => ({
          company_name: info.company_name,
          company_address: info.company_address,
        }),
      }}
      submit={(values) =>
        updateUserInfoOf(user.id, {
          company_name: values.company_name.trim(),
          company_address: values.company_address.trim(),
        })
      }
      success="保存成功"
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}
