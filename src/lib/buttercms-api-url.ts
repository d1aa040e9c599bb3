/** The ButterCMS read API's base when none is given. */
export const defaultButterApiUrl = 'https://api.buttercms.com/v2';

/**
 * One form for every way of writing the API base: `https://api.buttercms.com`, `…/v2` and `…/v2/`
 * all mean `https://api.buttercms.com/v2`; a base with a path of its own (a proxy) keeps it, without
 * trailing slashes. Blank or absent: the default. Query and fragment are dropped.
 */
export function normaliseButterApiUrl(apiUrl: string | undefined): string {
  const raw = apiUrl?.trim() ? apiUrl.trim() : defaultButterApiUrl;
  const url = new URL(raw);
  url.search = '';
  url.hash = '';
  let path = url.pathname.replace(/\/+$/, '');
  if (path === '') path = '/v2';
  url.pathname = path;
  return url.toString().replace(/\/+$/, '');
}
