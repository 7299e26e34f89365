/**
 * Translations with rosetta: one dictionary per language, built from
 * `locales/{lang}/{namespace}.json`. A missing text falls back to English, then to the key.
 */
import rosetta from "rosetta";
import { DEFAULT_LANGUAGE, isLanguage, type Language, LANGUAGES } from "../../core/roles.ts";

/** Translates a key with optional `{{name}}` parameters. */
export type Translate = (key: string, params?: Record<string, string | number>) => string;

/** The loaded translations. */
export interface I18n {
  /** A translator for one language. */
  t(lang: Language): Translate;
  /** The raw value under a key (for arrays and objects such as the legal texts). */
  raw(lang: Language, key: string): unknown;
}

type Dict = Record<string, unknown>;

/** Reads every locale file below `dir` (works inside a compiled binary too). */
export async function loadI18n(dir = new URL("../../locales/", import.meta.url)): Promise<I18n> {
  const dicts: Record<string, Dict> = {};
  for (const lang of LANGUAGES) {
    const dict: Dict = {};
    const langDir = new URL(`${lang}/`, dir);
    for await (const entry of Deno.readDir(langDir)) {
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      const ns = entry.name.slice(0, -5);
      dict[ns] = JSON.parse(await Deno.readTextFile(new URL(entry.name, langDir)));
    }
    dicts[lang] = dict;
  }
  return createI18n(dicts);
}

/** Builds the translator from dictionaries keyed by language. */
export function createI18n(dicts: Record<string, Dict>): I18n {
  const r = rosetta<Dict>(dicts);
  const lookup = (obj: unknown, key: string): unknown => {
    let cur = obj;
    for (const part of key.split(".")) {
      if (cur === null || typeof cur !== "object") return undefined;
      cur = (cur as Dict)[part];
    }
    return cur;
  };
  return {
    t(lang) {
      return (key, params) => {
        const own = r.t(key, params ?? {}, lang);
        if (own) return own;
        const en = r.t(key, params ?? {}, "en");
        return en || key;
      };
    },
    raw(lang, key) {
      return lookup(dicts[lang], key) ?? lookup(dicts.en, key);
    },
  };
}

/** Picks the language: the user's profile, else the stored pre-sign-in choice, else Spanish. */
export function pickLanguage(
  profile: string | null | undefined,
  stored: string | null | undefined,
): Language {
  if (isLanguage(profile)) return profile;
  if (isLanguage(stored)) return stored;
  return DEFAULT_LANGUAGE;
}
