import type { RecordTable } from '@footprint/domain';
import type { ReactNode } from 'react';
import { TableScroller } from './TableScroller.tsx';

/** Cells longer than this wrap (addresses, offences); shorter ones (dates, amounts, ids) stay on one line. */
const LONG_CELL = 28;

/**
 * Lists of records in a detail or intel answer (GST filings, directors, challans, employment history)
 * as tables: the domain's curated columns, one row per record. On a phone a table scrolls sideways
 * inside its card rather than stretching the page.
 */
export function RecordTables({
  tables,
  show = (text) => text,
}: {
  tables: readonly RecordTable[];
  /** Draws a cell's or header's text (the intel page highlights its search). */
  show?: (text: string) => ReactNode;
}) {
  return (
    <>
      {tables.map((table) => (
        <div key={table.path} className="record-table">
          <h3 className="record-table-title">
            {show(table.title)}
            <span className="record-table-count">
              {table.rows.length} {table.rows.length === 1 ? 'row' : 'rows'}
            </span>
          </h3>
          <TableScroller label={table.title}>
            <table className="data-table record-data-table">
              <thead>
                <tr>
                  {table.columns.map((column) => (
                    <th key={column.key} scope="col">
                      {show(column.label)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows are the answer's records, never reordered
                  <tr key={index}>
                    {row.map((value, column) => (
                      <td
                        key={table.columns[column]!.key}
                        className={value.length > LONG_CELL ? 'record-cell-long' : 'record-cell'}
                      >
                        {show(value)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroller>
        </div>
      ))}
    </>
  );
}
