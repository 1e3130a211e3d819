import { act, fireEvent } from '@testing-library/react';

/**
 * A click as a person makes it in a browser: the button goes down and takes the focus (unless the
 * page prevents that), the page reacts (the blur validates the field that had the focus, which may
 * disable the button), and only then does the button come up; a disabled button gets no click.
 * user-event moves no focus on a press under happy-dom, so this plays the browser's part.
 */
export async function pressAndRelease(target: HTMLElement) {
  const focused = document.activeElement;
  if (fireEvent.mouseDown(target)) {
    if (focused instanceof HTMLElement && focused !== target) fireEvent.focusOut(focused, { relatedTarget: target });
    act(() => target.focus());
  }
  await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
  fireEvent.mouseUp(target);
  if (!(target as HTMLButtonElement).disabled) fireEvent.click(target);
}
