import { formatBytes, formatCount } from '../format.js';
import { graphql, type ResultOf } from '../graphql.js';
import { TableScroll } from '../table-scroll.js';

export const TABLE_COUNT_FIELDS = graphql(`
  fragment TableCountFields on TableCount { tableId tableName recordCount fileCount storageBytes }
`);
type TableCount = ResultOf<typeof TABLE_COUNT_FIELDS>;

/** The latest counted day per table, largest first. */
export function TableBreakdown({ date, tables }: { date: string; tables: TableCount[] }) {
  const sorted = [...tables].sort((a, b) => b.recordCount - a.recordCount);
  return (
    <TableScroll label="Tables">
      <table data-testid="table-breakdown">
        <caption>Per table on {date}</caption>
        <thead>
          <tr>
            <th scope="col">Table</th>
            <th scope="col" class="num">
              Records
            </th>
            <th scope="col" class="num">
              Files
            </th>
            <th scope="col" class="num">
              Attachment storage
            </th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((table) => (
            <tr key={table.tableId}>
              <td>{table.tableName}</td>
              <td class="num">{formatCount(table.recordCount)}</td>
              <td class="num">{formatCount(table.fileCount)}</td>
              <td class="num">{formatBytes(table.storageBytes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
