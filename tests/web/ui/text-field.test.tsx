import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TextField } from '../../../src/ui/form/TextField';

/** aria-describedby must name only what is on the page: a screen reader reads nothing for a missing id. */
const describedText = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? `missing #${id}`);

describe('TextField', () => {
  it('is described by its description, then by its error alone when one shows', () => {
    const { rerender } = render(<TextField label="Name" description="Shown to other members." />);
    expect(describedText(screen.getByLabelText('Name'))).toEqual(['Shown to other members.']);
    rerender(<TextField label="Name" description="Shown to other members." error="The name is required." />);
    const input = screen.getByLabelText('Name');
    expect(describedText(input)).toEqual(['The name is required.']);
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });

  it('has no aria-describedby with neither', () => {
    render(<TextField label="Name" />);
    expect(screen.getByLabelText('Name').hasAttribute('aria-describedby')).toBe(false);
  });
});
