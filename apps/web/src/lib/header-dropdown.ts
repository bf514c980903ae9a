import type { DropdownProps } from 'antd';

/**
 * Where a header dropdown renders its menu: beside its trigger, not in <body>. In <body> the menu sits in page
 * coordinates while the trigger sits in the sticky header, so a scroll while it is open (a wheel, a focus, a test
 * driver bringing the item into view) slides the menu away until rc-trigger re-aligns it a frame or more later.
 * Inside the sticky header the menu moves with it.
 */
export function popupBesideTrigger(trigger: HTMLElement): HTMLElement {
  return trigger.parentElement ?? document.body;
}

/**
 * Props of the header's dropdowns (user menu, language). Both causes below lost clicks the same way: the press
 * landed on an item, the release on whatever had moved under the pointer, and the browser sent the click to
 * their common ancestor. Besides the scroll drift above, antd's slide-up opening shows the menu at full size for
 * one measuring pass and only then collapses it to scale(0) to grow it back; a press in that pass (a slow machine,
 * Playwright) released on the page behind. These menus open without the slide.
 */
export const HEADER_DROPDOWN: Pick<DropdownProps, 'getPopupContainer' | 'transitionName'> = {
  getPopupContainer: popupBesideTrigger,
  transitionName: '',
};
