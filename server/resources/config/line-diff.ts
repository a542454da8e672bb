/**
 * A line diff of two texts (prompt versions): the longest common subsequence of their lines, then
 * each line as kept, removed (only in the old text) or added (only in the new one), with its line
 * numbers. Pure; the `diff` package is not a dependency, and prompts are at most 20,000 characters.
 */
export interface DiffLine {
  op: 'same' | 'removed' | 'added';
  /** the line's number in the old text (null: added) */
  old_no: number | null;
  /** the line's number in the new text (null: removed) */
  new_no: number | null;
  text: string;
}

/** Lines compared at most per text; the rest of a longer text is compared as one last line. */
export const MAX_DIFF_LINES = 2000;

const linesOf = (s: string): string[] => {
  const lines = s.replace(/\r\n?/g, '\n').split('\n');
  return lines.length > MAX_DIFF_LINES ? [...lines.slice(0, MAX_DIFF_LINES - 1), lines.slice(MAX_DIFF_LINES - 1).join('\n')] : lines;
};

export function lineDiff(oldText: string, newText: string): DiffLine[] {
  const a = linesOf(oldText);
  const b = linesOf(newText);
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: the common subsequence length of a[i..] and b[j..]
  const lcs = new Int32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[at(i, j)] = a[i] === b[j] ? lcs[at(i + 1, j + 1)] + 1 : Math.max(lcs[at(i + 1, j)], lcs[at(i, j + 1)]);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ op: 'same', old_no: i + 1, new_no: j + 1, text: a[i] });
      i++;
      j++;
    } else if (j < m && (i === n || lcs[at(i, j + 1)] > lcs[at(i + 1, j)])) {
      out.push({ op: 'added', old_no: null, new_no: j + 1, text: b[j] });
      j++;
    } else {
      out.push({ op: 'removed', old_no: i + 1, new_no: null, text: a[i] });
      i++;
    }
  }
  return out;
}
