import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

const ITEM_SELECTOR = '[role="menuitem"]:not([disabled])';

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return menu === null ? [] : Array.from(menu.querySelectorAll<HTMLElement>(ITEM_SELECTOR));
}

/**
 * A "More actions" button and its menu. The menu stays mounted while closed (hidden), so an item that owns a dialog,
 * such as Export…, keeps that dialog after the menu closes. Arrow keys, Home and End move between items; Esc and
 * a click outside close it.
 */
export function OverflowMenu({ label = 'More actions', children }: { readonly label?: string; readonly children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    menuItems(menuRef.current)[0]?.focus();
    const onPointerDown = (event: PointerEvent): void => {
      if (!(event.target instanceof Node) || rootRef.current?.contains(event.target) !== true) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = (returnFocus: boolean): void => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const items = menuItems(menuRef.current);
    const index = items.findIndex((item) => item === document.activeElement);
    const move = (to: number): void => {
      event.preventDefault();
      items[(to + items.length) % items.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(items.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') close(false);
  };

  return (
    <div className="overflow-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-button overflow-menu-button"
        data-testid="more-actions"
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((shown) => !shown)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      <div
        ref={menuRef}
        id={menuId}
        className="overflow-menu-list"
        role="menu"
        aria-label={label}
        data-testid="more-actions-menu"
        hidden={!open}
        onKeyDown={onMenuKeyDown}
        onClick={(event) => {
          // Choosing an item closes the menu with the focus on its button, before the item's dialog (if any) opens:
          // that dialog hands the focus back to what held it, and a hidden item cannot take it.
          if (event.target instanceof Element && event.target.closest('[role="menuitem"]') !== null) close(true);
        }}
      >
        {children}
      </div>
    </div>
  );
}

/** The element to hand the focus back to for a control: the menu's button while the control sits in a closed menu. */
export function focusReturnTarget(control: HTMLElement | null): HTMLElement | null {
  const menu = control?.closest<HTMLElement>('[role="menu"][hidden]');
  if (menu === null || menu === undefined) return control;
  return menu.closest('.overflow-menu')?.querySelector<HTMLElement>('[aria-haspopup="menu"]') ?? control;
}
