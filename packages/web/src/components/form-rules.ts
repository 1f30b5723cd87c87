import type { FormRule } from 'antd';
import type { z } from 'zod';

/**
 * For the console's antd forms: a rule that checks one field with a core request schema,
 * so the form says what the server would say. The whole form is parsed, which lets cross-field checks (the
 * two passwords) report on their field too; only issues of `field` are shown here.
 */
export function zodRule(schema: z.ZodType, field: string): FormRule {
  return (form) => ({
    validator: async (_rule, value: unknown) => {
      const values = { ...form.getFieldsValue(true), [field]: value ?? '' };
      const result = schema.safeParse(values);
      if (result.success) return;
      const issue = result.error.issues.find((i) => i.path[0] === field);
      if (issue) throw new Error(issue.message);
    },
  });
}
