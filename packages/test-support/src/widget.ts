// The enrollment widget as the browser tests meet it: its frame over the page, and a user enrolling through it.
import type { Frame, Page } from 'playwright-core';

/** The frame element connect.js adds to the page. */
export const WIDGET_FRAME = 'iframe[title="Connect your bank account"]';

/** The frame of the widget the page shows (a page may keep others, hidden). */
export async function widgetFrame(page: Page): Promise<Frame> {
  const element = await page.waitForSelector(`${WIDGET_FRAME}:visible`);
  return (await element.contentFrame())!;
}

/** A user picking `institution` (found by `search`) and signing in, with the mouse; the widget then asks for what comes next. */
export async function signInThroughWidget(
  frame: Frame,
  { search, institution, username }: { search: string; institution: string; username: string },
): Promise<void> {
  await frame.getByLabel('Search institutions').fill(search);
  await frame.getByRole('button', { name: institution, exact: true }).click();
  await frame.getByLabel('Username').fill(username);
  await frame.getByLabel('Password').fill('password');
  await frame.getByRole('button', { name: 'Sign in' }).click();
}
