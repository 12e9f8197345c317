// The CSV files of a carom run (INTERFACES.md §3): a header row, then comma-separated values,
// unquoted.

// Returns the rows after the header as arrays of strings; throws when the header is not
// `expected`, so that a file from another program fails visibly instead of drawing nonsense.
export function parseCsv(name, text, expected) {
  const lines = text.split('\n').filter((line) => line.length > 0);
  if (lines.length === 0 || lines[0] !== expected) {
    throw new Error(`${name}: header is "${lines[0] ?? ''}", expected "${expected}"`);
  }
  return lines.slice(1).map((line) => line.split(','));
}
