import { TEXT_MAX } from '@se/core';
import type { FormField } from './form-fields.tsx';

export const onlyDigits = (value: string): string => value.replace(/\D+/g, '');

/** 联系电话: digits only, whatever is typed or pasted. */
export function phoneField<V extends { phone_num: string }>(
  placeholder: string,
  autoComplete: string,
): FormField<V> {
  return {
    name: 'phone_num' as keyof V & string,
    label: '联系电话',
    maxLength: 20,
    placeholder,
    props: { inputMode: 'numeric', autoComplete },
    item: { getValueFromEvent: (e: { target: { value: string } }) => onlyDigits(e.target.value) },
  };
}

/** 公司名称 and 公司地址, of one's own profile or of a user one manages. */
export function companyFields<V extends { company_name: string; company_address: string }>(): FormField<V>[] {
  return [
    {
      name: 'company_name' as keyof V & string,
      label: '公司名称',
      kind: 'textarea',
      maxLength: TEXT_MAX,
      placeholder: '请输入公司名称',
    },
    {
      name: 'company_address' as keyof V & string,
      label: '公司地址',
      kind: 'textarea',
      maxLength: TEXT_MAX,
      placeholder: '请输入公司地址',
    },
  ];
}
