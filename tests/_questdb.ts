/**
 * A QuestDB `/exec` answer as the server sends it: `columns` maps each column's name to its
 * type, in order; `timestamp` is the index of the designated timestamp column (-1: none).
 */
export function execAnswer(
  query: string,
  columns: Record<string, string>,
  dataset: unknown[][],
  timestamp = -1,
) {
  return {
    query,
    columns: Object.entries(columns).map(([name, type]) => ({ name, type })),
    timestamp,
    dataset,
    count: dataset.length,
  };
}
