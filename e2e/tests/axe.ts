import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import type { Result } from 'axe-core';

/** WCAG 2.0 and 2.1, levels A and AA: the bar the console is held to. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['serious', 'critical']);

/**
 * Waits until no CSS transition or animation runs (a modal fading in has not its final contrast
 * yet), and until every toast is fully opaque: a toast's transition is started a frame after it
 * is mounted, so for a moment it is translucent with no animation running (axe then measured its
 * title at 1.65:1).
 */
export async function settled(page: Page) {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.mantine-Notification-root')].every((toast) => {
      let opacity = 1;
      for (let element: Element | null = toast; element; element = element.parentElement) {
        opacity *= Number(getComputedStyle(element).opacity);
      }
      return opacity === 1;
    }),
  );
}

function report(violations: Result[]): string {
  return violations
    .map((violation) => {
      const nodes = violation.nodes
        .map((node) => `    ${node.target.join(' ')}\n      ${node.failureSummary?.split('\n').join('\n      ')}`)
        .join('\n');
      return `${violation.id} (${violation.impact}, ${violation.nodes.length} nodes): ${violation.help}\n${nodes}`;
    })
    .join('\n');
}

/**
 * Runs axe over the page as it is now and fails on any serious or critical violation, naming
 * each rule, its impact and the nodes, so the failure says what to fix and where. `include` narrows
 * the check to one part of the page (a CSS selector).
 */
export async function expectAccessible(page: Page, screen: string, include?: string) {
  await settled(page);
  const builder = new AxeBuilder({ page }).withTags(TAGS);
  if (include) builder.include(include);
  const results = await builder.analyze();
  const blocking = results.violations.filter((violation) => BLOCKING.has(violation.impact ?? ''));
  // Soft: one run reports every screen's violations, not only the first screen's.
  expect.soft(report(blocking), `serious or critical axe violations on ${screen}`).toBe('');
}
