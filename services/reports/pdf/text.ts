/**
 * Text for PDF reports drawn with the standard (WinAnsi) fonts: characters the font cannot
 * encode are replaced (money and numbers are written by `core/format.ts`).
 */
/** Spaces and dashes that Intl and users produce but WinAnsi lacks, with their stand-ins. */
const STAND_INS: Record<string, string> = {
  "\u202f": " ",
  "\u2009": " ",
  "\u2007": " ",
  "\u2212": "-",
  "\u2010": "-",
  "\u2011": "-",
  "\u2192": "->",
  "\u2264": "<=",
  "\u2265": ">=",
};

/**
 * Makes `text` drawable with a font whose encodable code points are `charset`: NFC first
 * (so a decomposed "n + tilde" becomes "ñ"), known stand-ins next, `?` for anything else;
 * control characters become spaces.
 */
export function encodable(text: string, charset: ReadonlySet<number>): string {
  let out = "";
  for (const ch of text.normalize("NFC")) {
    const cp = ch.codePointAt(0)!;
    if (cp < 32 || (cp >= 127 && cp < 160)) out += " ";
    else if (charset.has(cp)) out += ch;
    else if (STAND_INS[ch] !== undefined) out += STAND_INS[ch];
    else out += "?";
  }
  return out;
}
