import { describe, expect, it } from 'vitest';
import { ENDPOINT_PLACEHOLDERS } from '@/lib/fill-placeholders';
import { articleProblems, slugsOf } from './article-files';

// The same files the pages load lazily, read here eagerly as text.
const knowledge = import.meta.glob<string>('../features/learn/content/knowledge/*', { query: '?raw', import: 'default', eager: true });
const faq = import.meta.glob<string>('../features/learn/content/faq/*', { query: '?raw', import: 'default', eager: true });
const blog = import.meta.glob<string>('../features/learn/content/blog/*', { query: '?raw', import: 'default', eager: true });
const toolbox = import.meta.glob<string>('../features/toolbox/content/*', { query: '?raw', import: 'default', eager: true });

const sections = { '/learn/knowledge': slugsOf(knowledge), '/learn/faq': slugsOf(faq), '/learn/blog': slugsOf(blog), '/toolbox': slugsOf(toolbox) };

describe('article content', () => {
  it.each([
    ['knowledge base', knowledge, ENDPOINT_PLACEHOLDERS],
    ['toolbox', toolbox, ENDPOINT_PLACEHOLDERS],
    // FAQ and blog are shown as written: a placeholder there would reach the reader as {{host}}.
    ['FAQ', faq, []],
    ['blog', blog, []],
  ] as const)('%s: every article in en, zh-cn and zh, each with a title, in the right script, with working links', (_name, files, placeholders) => {
    expect(Object.keys(files).length).toBeGreaterThan(0);
    expect(articleProblems(files, { placeholders, sections })).toEqual([]);
  });

  it('has what the sections promise: 3–4 guides to start with, 8–12 questions, posts, integration guides', () => {
    expect(slugsOf(knowledge).length).toBeGreaterThanOrEqual(3);
    expect(slugsOf(knowledge).length).toBeLessThanOrEqual(4);
    expect(slugsOf(faq).length).toBeGreaterThanOrEqual(8);
    expect(slugsOf(faq).length).toBeLessThanOrEqual(12);
    expect(slugsOf(blog).length).toBeGreaterThanOrEqual(2);
    expect(slugsOf(toolbox).length).toBeGreaterThanOrEqual(5);
  });

  it('the check itself fails on a missing language, a missing title, a wrong script, a stray placeholder and a dead link', () => {
    const ok = (title: string, body = '') => `---\ntitle: "${title}"\n---\n${body}`;
    const problems = articleProblems(
      {
        'c/a.en.md': ok('A', 'See [b](?article=b) and [gone](?article=gone) at {{host}} {{hots}}.'),
        'c/a.zh-cn.md': ok('甲', '这个'),
        'c/a.zh.md': 'no front matter',
        'c/b.en.md': ok('B', '[faq](/learn/faq?article=nope)'),
        'c/b.zh.md': ok('乙', '这个网页'),
        'c/readme.md': 'stray',
      },
      { placeholders: ['host'], sections: { '/learn/faq': ['why'] } },
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('c/readme.md: not named'),
        'b: no zh-cn version',
        'a.zh.md: Article a.zh.md has no title',
        'b.zh.md: Simplified character 这',
        'a.en.md: unknown placeholder {{hots}}',
        'a.en.md: link to a missing article ?article=gone',
        'b.en.md: link to a missing article /learn/faq?article=nope',
      ]),
    );
    expect(problems).toHaveLength(7);
  });
});
