import { startHarness } from './harness.js';
const h = await startHarness();
try {
  const page = await h.newPage();
  page.on('console', (m) => console.log('CONSOLE', m.type(), m.text().slice(0, 300)));
  page.on('pageerror', (e) => console.log('PAGEERR', e.message));
  await h.signIn(page, h.admin);
  const res = await page.goto('/admin_center/authCenter/role');
  await page.waitForTimeout(3000);
  await page.screenshot({ path: '/tmp/dbg/now.png' });
  console.log(page.url(), (await page.locator('body').innerText()).slice(0, 300));
} finally {
  await h.close();
}
