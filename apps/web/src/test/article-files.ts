import { LANGS } from '@resi/contract';
import { articleFile, parseArticle } from '@/lib/article-catalogue';
import { articleSource } from '@/lib/article-source';

/** Characters that exist only in Simplified Chinese, and some only in Traditional, that these texts would use. */
const SIMPLIFIED_ONLY = /[户这码录设连页图发请时间务费网载选换复择验证关认为们账会话过还没说个问题应数据协议实现开动态钟启类该将与续错误结单总级转换础记]/;
const TRADITIONAL_ONLY = /[們這個網頁設帳號連線資訊麼與會話過還說問題應數據協議實現開動態鐘啟類該將續錯誤結單總級轉換礎記]/;

export interface ArticleRules {
  /** `{{name}}` placeholders the page fills in; any other one is a mistake. */
  placeholders: readonly string[];
  /** Slugs per console path, for links such as `/learn/faq?article=…`; `?article=…` must name one of `files`. */
  sections: Readonly<Record<string, readonly string[]>>;
}

/**
 * Everything wrong with one folder of articles (`path → raw text`): a file not named `<slug>.<lang>.md`,
 * a slug without all three languages, a file without a title, Chinese in the wrong script, an unknown
 * placeholder, a link to an article that does not exist. Empty when all is well.
 */
export function articleProblems(files: Record<string, string>, rules: ArticleRules): string[] {
  const problems: string[] = [];
  const langsOf = new Map<string, Set<string>>();
  for (const path of Object.keys(files)) {
    const file = articleFile(path);
    if (!file) problems.push(`${path}: not named <slug>.<${LANGS.join('|')}>.md`);
    else langsOf.set(file.slug, (langsOf.get(file.slug) ?? new Set()).add(file.lang));
  }
  for (const [slug, langs] of langsOf) {
    for (const lang of LANGS) if (!langs.has(lang)) problems.push(`${slug}: no ${lang} version`);
  }
  const slugs = [...langsOf.keys()];
  for (const [path, raw] of Object.entries(files)) {
    const file = articleFile(path);
    if (!file) continue;
    const name = `${file.slug}.${file.lang}.md`;
    try {
      parseArticle(articleSource(raw), file.slug, file.lang);
    } catch (err) {
      problems.push(`${name}: ${(err as Error).message}`);
    }
    if (file.lang === 'zh' && SIMPLIFIED_ONLY.test(raw)) problems.push(`${name}: Simplified character ${SIMPLIFIED_ONLY.exec(raw)![0]}`);
    if (file.lang === 'zh-cn' && TRADITIONAL_ONLY.test(raw)) problems.push(`${name}: Traditional character ${TRADITIONAL_ONLY.exec(raw)![0]}`);
    for (const [, placeholder] of raw.matchAll(/{{\s*(\w+)\s*}}/g)) {
      if (!rules.placeholders.includes(placeholder!)) problems.push(`${name}: unknown placeholder {{${placeholder}}}`);
    }
    for (const [, target] of raw.matchAll(/\]\(((?:\/[\w/-]*)?\?article=[\w-]+)\)/g)) {
      const [path = '', slug = ''] = target!.split('?article=');
      const known = path === '' ? slugs : rules.sections[path];
      if (!known?.includes(slug)) problems.push(`${name}: link to a missing article ${target}`);
    }
  }
  return problems;
}

/** Slugs of a folder's files, for `ArticleRules.sections`. */
export function slugsOf(files: Record<string, string>): string[] {
  return [...new Set(Object.keys(files).flatMap((path) => articleFile(path)?.slug ?? []))];
}
