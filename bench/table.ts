/** A plain-text table for the console: a title line, a header, a rule, the rows; columns left-aligned. Pure. */
export function alignedTable(title: string, head: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [title, line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
