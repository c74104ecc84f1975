import { messages } from '@footprint/domain';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LayoutSkeleton } from '../src/app/layouts/main/LayoutSkeleton.tsx';

/** The frame the build prerenders for a signed-in path, and the main layout's loading state. */
const frameOf = (pathname: string) => renderToStaticMarkup(createElement(LayoutSkeleton, { pathname }));

describe('the frame of the signed-in pages while the user loads', () => {
  it('is one busy region whose only announced part is the spinner, with nothing to focus or press', () => {
    const html = frameOf('/dashboard');
    expect(html).toMatch(/^<div class="min-h-dvh bg-ink" aria-busy="true">/);
    expect(html.match(/role="status"/g)).toHaveLength(1);
    expect(html).toContain(`<span class="sr-only">${messages.layout.loading}</span>`);
    expect(html).not.toMatch(/<(a|button|input|select|textarea)\b|tabindex/);
    // The sidebar column and the header bar are decoration until the layout replaces them.
    expect(html.match(/aria-hidden="true" class="(fixed|sticky) /g)).toHaveLength(2);
  });

  it('keeps the sidebar where the layout shows it, and the menu button’s place where it has one', () => {
    expect(frameOf('/dashboard')).toContain('w-64');
    expect(frameOf('/dashboard')).toContain('lg:pl-64');
    expect(frameOf('/dashboard')).toContain('size-10');
    // Spec §2.4: no sidebar on /results; no menu button on /help (the spec's four search pages have
    // one, and so does every page built beyond the spec that the sidebar lists, e.g. /history).
    expect(frameOf('/results')).not.toContain('w-64');
    expect(frameOf('/results')).not.toContain('lg:pl-64');
    expect(frameOf('/results')).not.toContain('size-10');
    expect(frameOf('/help')).toContain('w-64');
    expect(frameOf('/help')).not.toContain('size-10');
    for (const path of [
      '/history',
      '/cases',
      '/cases/abc',
      '/bulk',
      '/watchlist',
      '/api-keys',
      '/security',
    ]) {
      expect(frameOf(path), path).toContain('w-64');
      expect(frameOf(path), path).toContain('size-10');
    }
    expect(frameOf('/admin/users'), '/admin/users').toContain('size-10');
  });
});
