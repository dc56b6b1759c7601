import { attachmentBytes, type StoredAttachment } from './attachments.js';
import type { SandboxBase, SandboxTable } from './sandbox.types.js';

export interface StorageTotals {
  records: number;
  attachments: number;
  /** Sum of attachment sizes; an attachment without a size counts as 0 bytes. */
  attachmentBytes: number;
  attachmentsWithoutSize: number;
}

export interface TableSummary extends StorageTotals {
  id: string;
  name: string;
}

export interface BaseSummary extends StorageTotals {
  id: string;
  name: string;
  tables: TableSummary[];
}

/** The totals a usage count over the API should arrive at. */
export function summarizeBase(base: SandboxBase): BaseSummary {
  const tables = base.tables.map(summarizeTable);
  const sum = (key: keyof StorageTotals) => tables.reduce((total, table) => total + table[key], 0);
  return {
    id: base.id,
    name: base.name,
    tables,
    records: sum('records'),
    attachments: sum('attachments'),
    attachmentBytes: sum('attachmentBytes'),
    attachmentsWithoutSize: sum('attachmentsWithoutSize'),
  };
}

function summarizeTable(table: SandboxTable): TableSummary {
  const summary: TableSummary = {
    id: table.id,
    name: table.name,
    records: table.records.size,
    attachments: 0,
    attachmentBytes: 0,
    attachmentsWithoutSize: 0,
  };
  const attachmentFieldIds = table.fields.filter((field) => field.type === 'multipleAttachments').map((field) => field.id);
  for (const record of table.records.values()) {
    for (const fieldId of attachmentFieldIds) {
      const cell = record.cellsByFieldId[fieldId] as StoredAttachment[] | undefined;
      for (const attachment of cell ?? []) {
        summary.attachments++;
        summary.attachmentBytes += attachmentBytes(attachment);
        if (attachment.size === undefined) summary.attachmentsWithoutSize++;
      }
    }
  }
  return summary;
}
