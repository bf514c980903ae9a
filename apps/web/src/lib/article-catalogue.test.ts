import { describe, expect, it } from 'vitest';
import { articleCatalogue, parseArticle } from './article-catalogue';
import { articleSource } from './article-source';

const md = (front: string, body = 'Body.') => async () => articleSource(`---\n${front}\n---\n${body}`);

describe('articleCatalogue', () => {
  const catalogue = articleCatalogue({
    './c/second.en.md': md('title: Second\norder: 2'),
    './c/second.zh-cn.md': md('title: 第二\norder: 2', '正文'),
    './c/first.en.md': md('title: "First: the basics"\nsummary: Start here\norder: 1'),
    './c/old.en.md': md('title: Old\ndate: 2026-01-05'),
    './c/new.en.md': md("title: New\ndate: '2026-03-01'"),
    './c/notes.txt': md('title: ignored'),
  });

  it('knows its slugs and ignores files not named <slug>.<lang>.md', () => {
    expect([...catalogue.slugs].sort()).toEqual(['first', 'new', 'old', 'second']);
    expect(catalogue.has('second')).toBe(true);
    expect(catalogue.has('notes')).toBe(false);
  });

  it('lists by order, then newest date first, with front matter read', async () => {
    const all = await catalogue.loadAll('en');
    expect(all.map((a) => a.slug)).toEqual(['first', 'second', 'new', 'old']);
    expect(all[0]).toMatchObject({ title: 'First: the basics', summary: 'Start here', order: 1, date: null, lang: 'en', body: 'Body.' });
    expect(all.map((a) => a.date)).toEqual([null, null, '2026-03-01', '2026-01-05']);
  });

  it('gives the translation when there is one, else English (and says which it gave)', async () => {
    const all = await catalogue.loadAll('zh-cn');
    expect(all.find((a) => a.slug === 'second')).toMatchObject({ title: '第二', lang: 'zh-cn', body: '正文' });
    expect(all.find((a) => a.slug === 'first')).toMatchObject({ title: 'First: the basics', lang: 'en' });
  });
});

describe('parseArticle', () => {
  it('refuses a file without a title', () => {
    expect(() => parseArticle(articleSource('---\nsummary: x\n---\nBody'), 'a', 'en')).toThrow('Article a.en.md has no title');
    expect(() => parseArticle(articleSource('No front matter at all'), 'a', 'zh')).toThrow('Article a.zh.md has no title');
  });
});
