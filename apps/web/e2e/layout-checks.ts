import type { Page } from '@playwright/test';

export interface Overflow {
  scrollWidth: number;
  innerWidth: number;
  /** Visible elements whose visible part reaches past the viewport's left or right edge. */
  outside: string[];
}

/**
 * How far the page reaches sideways. An element counts only with the part its scrolling or clipping
 * ancestors let through: a wide table inside its own scroll box is fine, a card wider than the screen is not.
 * Measured once running animations have ended: a drawer still sliding in sits partly off screen for a moment.
 */
export async function horizontalOverflow(page: Page): Promise<Overflow> {
  return page.evaluate(async () => {
    // Spinners and skeleton shimmer repeat for ever; only animations that end are waited for.
    const ending = document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
    await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
    const width = window.innerWidth;
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : '';
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).slice(0, 3).join('.')}` : '';
      const text = (el as HTMLElement).innerText?.trim().slice(0, 30) ?? '';
      return `${el.tagName.toLowerCase()}${id}${cls} "${text}"`;
    };
    const outside: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      let left = rect.left;
      let right = rect.right;
      for (let parent = el.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        if (getComputedStyle(parent).overflowX === 'visible') continue;
        const clip = parent.getBoundingClientRect();
        left = Math.max(left, clip.left);
        right = Math.min(right, clip.right);
      }
      // Wholly clipped away (a scrolled-off table column): not on screen at all.
      if (right <= left) continue;
      if (left < -1 || right > width + 1) outside.push(`${describe(el)} ${Math.round(left)}..${Math.round(right)}`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: width, outside: outside.slice(0, 10) };
  });
}

/** Element ids that occur more than once on the page. */
export async function duplicateIds(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const seen = new Map<string, number>();
    for (const el of document.querySelectorAll('[id]')) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
    return [...seen].filter(([, count]) => count > 1).map(([id, count]) => `${id} ×${count}`);
  });
}
