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
    // Spec §2.4: no sidebar on /results; no menu button on the history page.
    expect(frameOf('/results')).not.toContain('w-64');
    expect(frameOf('/results')).not.toContain('lg:pl-64');
    expect(frameOf('/history')).toContain('w-64');
    expect(frameOf('/history')).not.toContain('size-10');
  });
});
