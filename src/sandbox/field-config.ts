import { z } from 'zod';
import { FIELD_TYPES, NON_PRIMARY_FIELD_TYPES, READ_ONLY_FIELD_TYPES } from './field-types.js';
import type { IdGenerator } from './id-generator.js';
import { linkOptions } from './link-fields.js';
import { duplicateFieldName, invalidFieldOptions, invalidRequest, unsupportedFieldType } from './sandbox-errors.js';
import type { FieldConfig, SandboxBase, SandboxField } from './sandbox.types.js';

export interface FieldBuildContext {
  ids: IdGenerator;
  base: SandboxBase;
  tableName: string;
  /** Names already taken in the table, lower-cased. */
  takenNames: Set<string>;
  isPrimary: boolean;
  /** Lets seeded content use computed types, which the API refuses. */
  allowComputed: boolean;
}

type Options = Record<string, unknown>;
type OptionRule = { required: boolean; schema: z.ZodType<Options> } | 'none' | 'any';

const precision = (max: number) => z.strictObject({ precision: z.number().int().min(0).max(max) });
const dateFormat = z.strictObject({
  name: z.enum(['local', 'friendly', 'us', 'european', 'iso']),
  format: z.string().optional(),
});
const timeFormat = z.strictObject({ name: z.enum(['12hour', '24hour']), format: z.string().optional() });
const choices = z.strictObject({
  choices: z.array(z.strictObject({ name: z.string().min(1), color: z.string().optional() })),
});

const OPTION_RULES: Record<string, OptionRule> = {
  singleLineText: 'none',
  email: 'none',
  url: 'none',
  multilineText: 'none',
  phoneNumber: 'none',
  richText: 'none',
  number: { required: true, schema: precision(8) },
  percent: { required: true, schema: precision(8) },
  currency: { required: true, schema: z.strictObject({ precision: z.number().int().min(0).max(7), symbol: z.string() }) },
  date: { required: true, schema: z.strictObject({ dateFormat }) },
  dateTime: { required: true, schema: z.strictObject({ timeZone: z.string().min(1), dateFormat, timeFormat }) },
  singleSelect: { required: true, schema: choices },
  multipleSelects: { required: true, schema: choices },
  checkbox: { required: true, schema: z.strictObject({ color: z.string(), icon: z.string() }) },
  rating: {
    required: true,
    schema: z.strictObject({ max: z.number().int().min(1).max(10), icon: z.string(), color: z.string() }),
  },
  multipleRecordLinks: { required: true, schema: z.strictObject({ linkedTableId: z.string() }) },
  multipleAttachments: { required: false, schema: z.strictObject({ isReversed: z.boolean().optional() }) },
};

const DATE_FORMATS: Record<string, string> = {
  local: 'l',
  friendly: 'LL',
  us: 'M/D/YYYY',
  european: 'D/M/YYYY',
  iso: 'YYYY-MM-DD',
};
const TIME_FORMATS: Record<string, string> = { '12hour': 'h:mma', '24hour': 'HH:mm' };

export function buildField(config: FieldConfig, context: FieldBuildContext): SandboxField {
  const name = config.name.trim();
  const label = `${context.tableName}.${name}`;
  if (name === '' || context.takenNames.has(name.toLowerCase())) throw duplicateFieldName(name);
  if (config.description !== undefined && config.description.length > 20_000) throw invalidRequest();
  checkType(config.type, label, context);
  const options = normalizeOptions(config.type, validateOptions(config, label), context);
  context.takenNames.add(name.toLowerCase());
  const field: SandboxField = { id: context.ids.next('fld'), name, type: config.type };
  if (config.description) field.description = config.description;
  if (options) field.options = options;
  return field;
}

function checkType(type: string, label: string, context: FieldBuildContext): void {
  if (!FIELD_TYPES.has(type)) throw unsupportedFieldType(`Invalid options for ${label}: unknown field type "${type}"`);
  if (READ_ONLY_FIELD_TYPES.has(type) && !context.allowComputed) {
    throw unsupportedFieldType(`Invalid options for ${label}: Creating ${type} fields is not supported at this time`);
  }
  if (context.isPrimary && NON_PRIMARY_FIELD_TYPES.has(type)) {
    throw unsupportedFieldType(`Invalid options for ${label}: a ${type} field cannot be the primary field`);
  }
}

function validateOptions(config: FieldConfig, label: string): Options | undefined {
  const rule = OPTION_RULES[config.type] ?? 'any';
  if (rule === 'any') return config.options;
  const fail = (reason: string) => invalidFieldOptions(`Invalid options for ${label}: Failed schema validation: ${reason}`);
  if (rule === 'none') {
    if (config.options !== undefined) throw fail(`options is not included in the ${config.type} schema`);
    return undefined;
  }
  if (config.options === undefined) {
    if (rule.required) throw fail('options is missing');
    return undefined;
  }
  const parsed = rule.schema.safeParse(config.options);
  if (!parsed.success) throw fail(parsed.error.issues.map((issue) => `options.${issue.path.join('.')} ${issue.message}`).join('; '));
  return parsed.data;
}

function normalizeOptions(type: string, options: Options | undefined, context: FieldBuildContext): Options | undefined {
  switch (type) {
    case 'date':
      return { dateFormat: withFormat(options?.dateFormat, DATE_FORMATS) };
    case 'dateTime':
      return {
        timeZone: options?.timeZone,
        dateFormat: withFormat(options?.dateFormat, DATE_FORMATS),
        timeFormat: withFormat(options?.timeFormat, TIME_FORMATS),
      };
    case 'singleSelect':
    case 'multipleSelects':
      return { choices: ((options?.choices ?? []) as Array<Options>).map((choice) => ({ id: context.ids.next('sel'), ...choice })) };
    case 'multipleAttachments':
      return { isReversed: options?.isReversed ?? false };
    case 'multipleRecordLinks':
      return checkedLinkOptions(options?.linkedTableId as string, context);
    default:
      return options;
  }
}

function withFormat(value: unknown, formats: Record<string, string>): Options {
  const format = value as { name: string; format?: string };
  return { name: format.name, format: format.format ?? formats[format.name] };
}

/** The inverse field, and `inverseLinkFieldId`, are added once the field is in its table (link-fields.ts). */
function checkedLinkOptions(linkedTableId: string, context: FieldBuildContext): Options {
  if (!context.base.tables.some((table) => table.id === linkedTableId)) {
    throw invalidFieldOptions(`Invalid options for ${context.tableName}: linked table ${linkedTableId} does not exist`);
  }
  return linkOptions(linkedTableId);
}
