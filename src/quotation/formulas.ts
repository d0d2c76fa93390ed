// Formulas saved without a cached value (files written by scripts, or by apps that never calculate) read as empty,
// and a price column of `=C5*D5` would silently lose every price. The simple ones a quotation uses — a product, a
// sum, a difference, a percentage off — are worked out here from the cells they name; anything else is reported with
// its sheet and cell so the buyer knows a value is missing.

/** The value of a cell by 0-based row and column, or null when it is blank or not a number. */
export type CellValue = (row: number, column: number) => number | null;

const TOKEN = /\s*(\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?|\d+(?:\.\d+)?%?|SUM|[-+*/(),])/iy;

function reference(text: string): { row: number; column: number } {
  const match = /^\$?([A-Z]{1,3})\$?(\d+)$/i.exec(text);
  const letters = (match?.[1] ?? 'A').toUpperCase();
  let column = 0;
  for (const letter of letters) column = column * 26 + (letter.charCodeAt(0) - 64);
  return { row: Number(match?.[2] ?? 1) - 1, column: column - 1 };
}

/**
 * The value of a simple formula ("=C5*D5", "=SUM(E5:E20)", "=E21*0.05", "=(C5*D5)*(1-10%)"), or null when it uses
 * anything else or names a cell without a number.
 */
export function evaluateFormula(formula: string, valueAt: CellValue): number | null {
  const tokens: string[] = [];
  const source = formula.replace(/^=/, '');
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(source);
    if (!match?.[1]) return source.slice(start).trim() === '' ? finish() : null;
    tokens.push(match[1]);
  }
  return finish();

  function finish(): number | null {
    let at = 0;
    const fail = Symbol('fail');
    const peek = () => tokens[at];
    const cell = (text: string) => {
      const { row, column } = reference(text);
      const value = valueAt(row, column);
      if (value === null) throw fail;
      return value;
    };
    const range = (text: string): number[] => {
      const [from = '', to = ''] = text.split(':');
      const a = reference(from);
      const b = reference(to);
      const values: number[] = [];
      for (let r = Math.min(a.row, b.row); r <= Math.max(a.row, b.row); r++) {
        for (let c = Math.min(a.column, b.column); c <= Math.max(a.column, b.column); c++) {
          values.push(valueAt(r, c) ?? 0);
        }
      }
      return values;
    };
    const primary = (): number => {
      const token = tokens[at++];
      if (token === undefined) throw fail;
      if (token === '-') return -primary();
      if (token === '+') return primary();
      if (token === '(') {
        const value = sum();
        if (tokens[at++] !== ')') throw fail;
        return value;
      }
      if (/^sum$/i.test(token)) {
        if (tokens[at++] !== '(') throw fail;
        let total = 0;
        for (;;) {
          const next = peek() ?? '';
          if (next.includes(':')) {
            at++;
            total += range(next).reduce((a, b) => a + b, 0);
          } else total += sum();
          const separator = tokens[at++];
          if (separator === ')') return total;
          if (separator !== ',') throw fail;
        }
      }
      if (/^\d/.test(token)) return token.endsWith('%') ? Number(token.slice(0, -1)) / 100 : Number(token);
      if (token.includes(':')) throw fail;
      return cell(token);
    };
    const product = (): number => {
      let value = primary();
      while (peek() === '*' || peek() === '/') {
        const op = tokens[at++];
        const right = primary();
        if (op === '/' && right === 0) throw fail;
        value = op === '*' ? value * right : value / right;
      }
      return value;
    };
    const sum = (): number => {
      let value = product();
      while (peek() === '+' || peek() === '-') value = tokens[at++] === '+' ? value + product() : value - product();
      return value;
    };
    try {
      const value = sum();
      return at === tokens.length && Number.isFinite(value) ? value : null;
    } catch (error) {
      if (error === fail) return null;
      throw error;
    }
  }
}
