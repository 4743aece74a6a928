/** Arguments as a POSIX shell reads them back: bare when safe, else single-quoted, or `$'…'` when they hold a line break. */
export const quoteArgs = (args: ReadonlyArray<string>): string =>
  args
    .map((arg) => {
      if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
      if (/[\r\n]/.test(arg)) return `$'${arg.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n").replace(/\r/g, "\\r")}'`;
      return `'${arg.replace(/'/g, `'\\''`)}'`;
    })
    .join(" ");
