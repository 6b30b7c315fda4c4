import { useEffect, useState } from 'react';

// Keyboard shortcuts of the workspace, listed in a help overlay (`?`). They act when no field has
// the focus (typing in a field is typing); Escape always works.

export const shortcuts: Array<[keys: string, what: string]> = [
  ['j / ↓', 'Next conversation'],
  ['k / ↑', 'Previous conversation'],
  ['r', 'Reply (focus the reply box)'],
  ['/ in the reply box', 'Canned responses: type to filter, Enter inserts'],
  ['Enter / Shift+Enter', 'Send / new line'],
  ['Shift+C', 'Close the conversation'],
  ['s', 'Search'],
  ['?', 'This help'],
  ['Esc', 'Close this help, or go back to the list'],
];

const typingInField = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** Moves to the next (+1) or previous (-1) conversation of the list on screen. */
function step(direction: 1 | -1) {
  const links = [...document.querySelectorAll<HTMLAnchorElement>('[data-testid=inbox] a[data-request-id]')];
  if (!links.length) return;
  const current = links.findIndex((a) => a.getAttribute('aria-current') === 'page');
  const next = links[Math.min(links.length - 1, Math.max(0, current < 0 ? 0 : current + direction))];
  next.click();
  next.focus();
}

const click = (selector: string) => document.querySelector<HTMLElement>(selector)?.click();

export function useShortcuts(onEscape: () => void) {
  const [help, setHelp] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        if (help) setHelp(false);
        else if (!typingInField(e.target)) onEscape();
        return;
      }
      if (typingInField(e.target) || e.metaKey || e.ctrlKey || e.altKey) return;
      const act: Record<string, () => void> = {
        j: () => step(1),
        ArrowDown: () => step(1),
        k: () => step(-1),
        ArrowUp: () => step(-1),
        r: () => document.querySelector<HTMLTextAreaElement>('#reply-text')?.focus(),
        C: () => click('[data-action=close]'),
        s: () => document.querySelector<HTMLInputElement>('#search')?.focus(),
        '?': () => setHelp((shown) => !shown),
      };
      const run = act[e.key];
      if (!run) return;
      e.preventDefault();
      run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [help, onEscape]);
  return { help, closeHelp: () => setHelp(false), openHelp: () => setHelp(true) };
}

export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" onClick={onClose}>
      <div className="overlay-card" onClick={(e) => e.stopPropagation()}>
        <h2>Keyboard shortcuts</h2>
        <dl className="shortcuts">
          {shortcuts.map(([keys, what]) => (
            <div key={keys}>
              <dt>
                <kbd>{keys}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
        <button type="button" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </div>
  );
}
