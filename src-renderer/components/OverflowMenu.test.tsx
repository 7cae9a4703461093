// @vitest-environment jsdom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OverflowMenu, focusReturnTarget } from './OverflowMenu';

afterEach(cleanup);

function renderMenu(onFirst = vi.fn()) {
  return render(
    <div>
      <OverflowMenu>
        <button type="button" role="menuitem" onClick={onFirst}>
          First
        </button>
        <button type="button" role="menuitem" disabled>
          Disabled
        </button>
        <button type="button" role="menuitem">
          Last
        </button>
      </OverflowMenu>
      <button type="button">Outside</button>
    </div>,
  );
}

describe('OverflowMenu', () => {
  it('is a labelled button that opens a hidden menu with the first item focused', () => {
    const view = renderMenu();
    const button = view.getByRole('button', { name: 'More actions' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(view.queryByRole('menu')).toBeNull();
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(view.getByRole('menu', { name: 'More actions' }).id).toBe(button.getAttribute('aria-controls'));
    expect(document.activeElement).toBe(view.getByRole('menuitem', { name: 'First' }));
  });

  it('moves with the arrows, Home and End, skipping disabled items, and wraps', () => {
    const view = renderMenu();
    fireEvent.click(view.getByRole('button', { name: 'More actions' }));
    const menu = view.getByRole('menu');
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Last');
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('First');
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(document.activeElement?.textContent).toBe('Last');
    fireEvent.keyDown(menu, { key: 'Home' });
    expect(document.activeElement?.textContent).toBe('First');
    fireEvent.keyDown(menu, { key: 'End' });
    expect(document.activeElement?.textContent).toBe('Last');
  });

  it('closes on Esc with the focus back on its button, on a chosen item, and on a click outside', () => {
    const onFirst = vi.fn();
    const view = renderMenu(onFirst);
    const button = view.getByRole('button', { name: 'More actions' });
    fireEvent.click(button);
    fireEvent.keyDown(view.getByRole('menu'), { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);

    fireEvent.click(button);
    fireEvent.click(view.getByRole('menuitem', { name: 'First' }));
    expect(onFirst).toHaveBeenCalledTimes(1);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    // A dialog the item opens hands the focus back to what held it: the menu's button, not the hidden item.
    expect(document.activeElement).toBe(button);
    expect(focusReturnTarget(view.getByRole('menuitem', { name: 'First', hidden: true }))).toBe(button);
    expect(focusReturnTarget(view.getByRole('button', { name: 'Outside' }))).toBe(view.getByRole('button', { name: 'Outside' }));

    fireEvent.click(button);
    fireEvent.pointerDown(view.getByRole('button', { name: 'Outside' }));
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('opens from the keyboard with ArrowDown on its button', () => {
    const view = renderMenu();
    fireEvent.keyDown(view.getByRole('button', { name: 'More actions' }), { key: 'ArrowDown' });
    expect(view.getByRole('menu').hidden).toBe(false);
  });
});
