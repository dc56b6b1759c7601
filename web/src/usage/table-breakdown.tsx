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
            <th scope="col">Records</th>
            <th scope="col">Files</th>
            <th scope="col">Attachment storage</th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((table) => (
            <tr key={table.tableId}>
              <td>{table.tableName}</td>
              <td>{formatCount(table.recordCount)}</td>
              <td>{formatCount(table.fileCount)}</td>
              <td>{formatBytes(table.storageBytes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
