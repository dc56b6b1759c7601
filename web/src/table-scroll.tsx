import type { ComponentChildren } from 'preact';

/** A wide table's sideways scroller: a labelled region that takes keyboard focus so it can be scrolled with arrow keys. */
export function TableScroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be keyboard-focusable (axe's scrollable-region-focusable, WCAG 2.1.1)
    <section class="table-scroll" tabIndex={0} aria-label={`${label} (scrolls sideways)`}>
      {children}
    </section>
  );
}
