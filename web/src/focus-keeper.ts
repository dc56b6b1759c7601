// A control disabled while its work runs loses the keyboard focus to the page's body, and keyboard and screen-reader
// users lose their place. This gives the focus back: the control last pressed that was disabled while it held the
// focus is focused again when it is enabled, if nothing else took the focus meanwhile.

let pressed: HTMLElement | null = null;
let waiting: HTMLElement | null = null;

const focusLost = () => document.activeElement === null || document.activeElement === document.body;

/** Starts watching (once, from main.tsx). */
export function keepFocusOnBusyControls(): void {
  const remember = (event: Event) => {
    const control = (event.target as Element | null)?.closest?.('button, input, select');
    if (control instanceof HTMLElement) pressed = control;
  };
  document.addEventListener('click', remember, true);
  document.addEventListener('keydown', remember, true);
  document.addEventListener(
    'submit',
    (event) => {
      const submitter = (event as SubmitEvent).submitter;
      if (submitter) pressed = submitter;
    },
    true,
  );
  new MutationObserver((mutations) => {
    for (const { target } of mutations) {
      if (!(target instanceof HTMLButtonElement || target instanceof HTMLInputElement || target instanceof HTMLSelectElement)) continue;
      if (target.disabled && target === pressed) waiting = target;
      else if (!target.disabled && target === waiting) {
        waiting = null;
        if (focusLost() && target.isConnected) target.focus();
      }
    }
  }).observe(document.body, { attributes: true, attributeFilter: ['disabled'], subtree: true });
}
