/**
 * What the report scripts (html/report-script.ts, compare/html/script.ts) show of a text: the
 * characters safe-text.ts escapes in every other output as `\uXXXX`, since controls, format
 * characters and default-ignorables display as nothing (or reorder the text around them):
 * a tenant `acme-corp` + tag characters would read as `acme-corp`. It runs in the browser:
 * render-html.ts inlines its text, called with the pattern's source, so the function is
 * whole in itself and the list of characters is written once.
 */
export function visibleIn(unsafePattern: string): (text: string) => string {
  const unsafe = new RegExp(unsafePattern, 'gu');
  return function visible(text: string): string {
    return text.replace(unsafe, (c) => {
      let escaped = '';
      for (let i = 0; i < c.length; i++) escaped += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
      return escaped;
    });
  };
}
