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

/**
 * What a table hides on a wide screen, as it is first shown: a header whose text is cut, that lies past the
 * table's edge, or that sits under a pinned column (an "Enabled" column showing "En"), or a control in a scrolling column under a pinned one (a
 * switch under the pinned Actions column). Each entry names the table's header row and what is wrong.
 */
export async function tableProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const pinned = '.ant-table-cell-fix-left, .ant-table-cell-fix-right, .ant-table-cell-fix-start, .ant-table-cell-fix-end';
    const controls = 'button, a, input, .ant-switch, .ant-select, .ant-checkbox-wrapper, .ant-radio-wrapper';
    const problems: string[] = [];
    for (const wrapper of document.querySelectorAll<HTMLElement>('.ant-table-wrapper')) {
      if (!wrapper.checkVisibility({ visibilityProperty: true })) continue;
      const name = [...wrapper.querySelectorAll<HTMLElement>('thead th')].map((th) => th.innerText.trim()).filter(Boolean).slice(0, 3).join(' | ');
      const pinnedHeads = [...wrapper.querySelectorAll<HTMLElement>(`thead :is(${pinned})`)].map((th) => th.getBoundingClientRect());
      for (const th of wrapper.querySelectorAll<HTMLElement>('thead th')) {
        const text = th.innerText.trim();
        if (!text || th.classList.contains('ant-table-selection-column')) continue;
        // The text's own extent against its cell's (not scrollWidth: a pinned cell's shadow reaches past it).
        const words = document.createRange();
        words.selectNodeContents(th);
        const [w, c] = [words.getBoundingClientRect(), th.getBoundingClientRect()];
        if (w.left < c.left - 1 || w.right > c.right + 1) problems.push(`[${name}] header "${text}" cut: ${Math.round(c.width)} of ${Math.round(w.width)} px shown`);
        // Past the table's own box: the table is wider than its card and the column starts off screen, scrolled
        // away ("Last login" at 1280 px). A wide screen shows every column without scrolling sideways.
        const box = th.closest<HTMLElement>('.ant-table-content, .ant-table-header')?.getBoundingClientRect();
        if (box && c.right > box.right + 1) problems.push(`[${name}] header "${text}" past the table's edge by ${Math.round(c.right - box.right)} px`);
        // Headers read as headers: only a cell's value (an order number) is set in monospace.
        if (/mono/i.test(getComputedStyle(th).fontFamily)) problems.push(`[${name}] header "${text}" in a monospace font`);
        const r = th.getBoundingClientRect();
        if (!th.matches(pinned) && pinnedHeads.some((c) => r.right > c.left + 1 && r.left < c.right - 1)) problems.push(`[${name}] header "${text}" under a pinned column`);
      }
      for (const row of wrapper.querySelectorAll<HTMLElement>('tbody tr.ant-table-row')) {
        const covers = [...row.querySelectorAll<HTMLElement>(pinned)].map((cell) => cell.getBoundingClientRect());
        if (covers.length === 0) continue;
        for (const cell of row.querySelectorAll<HTMLElement>('td')) {
          if (cell.matches(pinned)) continue;
          for (const control of cell.querySelectorAll<HTMLElement>(controls)) {
            const r = control.getBoundingClientRect();
            if (r.width === 0 || r.height === 0) continue;
            if (covers.some((c) => r.right > c.left + 1 && r.left < c.right - 1)) problems.push(`[${name}] a control ("${control.innerText.trim().slice(0, 20) || control.className.split(' ')[0]}") under a pinned column`);
          }
        }
      }
    }
    return [...new Set(problems)];
  });
}

/**
 * Choices a segmented control keeps out of sight: an option past the control's own box (five metrics in a
 * strip that scrolled, on a phone, with nothing to say more were there).
 */
export async function hiddenChoices(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const hidden: string[] = [];
    for (const control of document.querySelectorAll<HTMLElement>('.ant-segmented')) {
      if (!control.checkVisibility({ visibilityProperty: true })) continue;
      const box = control.getBoundingClientRect();
      for (const item of control.querySelectorAll<HTMLElement>('.ant-segmented-item')) {
        const r = item.getBoundingClientRect();
        if (r.left < box.left - 1 || r.right > box.right + 1) hidden.push(`"${item.innerText.trim()}" outside its switcher`);
      }
    }
    return hidden;
  });
}

/**
 * The space under each validation message shown, to the next field of its form below it: antd lets a message
 * fill the item's margin exactly, so it sat flush against the next label.
 */
export async function gapsBelowMessages(page: Page): Promise<number[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.ant-form-item-explain-error')].flatMap((message) => {
      const text = message.getBoundingClientRect();
      const form = message.closest('form');
      const below = [...(form?.querySelectorAll<HTMLElement>('.ant-form-item') ?? [])]
        .map((item) => item.getBoundingClientRect())
        .filter((r) => r.height > 0 && r.top >= text.top && r.left < text.right && r.right > text.left);
      return below.length ? [Math.round(Math.min(...below.map((r) => r.top)) - text.bottom)] : [];
    }),
  );
}
