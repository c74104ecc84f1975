/**
 * Tiny generated images as data: URLs, so sandbox answers never point at a real host: avatars are the
 * initials on a colour, logos a letter on a rounded square.
 */

const COLOURS = ['#2563eb', '#16a34a', '#db2777', '#ea580c', '#7c3aed', '#0d9488', '#b45309', '#4b5563'];

function svgDataUrl(svg: string): string {
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function colourFor(text: string): string {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return COLOURS[h % COLOURS.length] as string;
}

export function initialsOf(name: string): string {
  const parts = name
    .replace(/[^A-Za-z ]/g, ' ')
    .split(' ')
    .filter(Boolean);
  const first = parts[0]?.[0] ?? '?';
  const last = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase();
}

/** A 96×96 round avatar with the name's initials. `variant` shifts the colour (another photo). */
export function avatarDataUrl(name: string, variant = 0): string {
  const bg = colourFor(`${name}#${variant}`);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">` +
    `<circle cx="48" cy="48" r="48" fill="${bg}"/>` +
    `<text x="48" y="60" font-family="Arial,sans-serif" font-size="36" fill="#fff" text-anchor="middle">${initialsOf(name)}</text>` +
    '</svg>';
  return svgDataUrl(svg);
}

/** A 64×64 brand logo: the brand's first letter on its colour. */
export function logoDataUrl(brand: string, colour: string): string {
  const letter = (brand.trim()[0] ?? '?').toUpperCase();
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">` +
    `<rect width="64" height="64" rx="14" fill="${colour}"/>` +
    `<text x="32" y="44" font-family="Arial,sans-serif" font-size="34" font-weight="bold" fill="#fff" text-anchor="middle">${letter}</text>` +
    '</svg>';
  return svgDataUrl(svg);
}
