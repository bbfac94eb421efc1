/**
 * What /console answers (503) when the console's build folder has no index.html: how to make it,
 * rather than an error. Static text only, so the strict CSP holds (no script, no inline style).
 */
export function consoleUnbuiltPage(directory: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Console not built</title></head>
<body>
<h1>The console has not been built</h1>
<p>This gateway serves the operator console from <code>${escapeHtml(directory)}</code>, which has no
<code>index.html</code>.</p>
<p>Build it from the repository root with <code>npm run build</code> (or only the console:
<code>npx vite build --config apps/console/vite.config.ts</code>), then reload this page. No restart is needed.</p>
<p>The admin API under <code>/admin</code> works meanwhile. Set <code>CONSOLE_DIR</code> if the build lives
elsewhere, or <code>CONSOLE_ENABLED=false</code> to turn the console off.</p>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
