import { act, render, screen } from '@testing-library/react';
import { useTranslation } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/test/render';
import { forceLanguage, registerLocales, setLanguage, storedLanguage } from './i18n';

registerLocales('sample', { en: { hello: 'Hello, {name}!' }, he: { hello: 'שלום, {name}!' } });

function Greeting() {
  const { t } = useTranslation('sample');
  return (
    <>
      <p>{t('hello', { name: 'Dana' })}</p>
      <p>{t('sample:not.there')}</p>
    </>
  );
}

describe('i18n', () => {
  it('defaults to Hebrew when nothing is stored', () => {
    localStorage.removeItem('language');
    expect(storedLanguage()).toBe('he');
  });

  it('substitutes {name} placeholders and shows a missing key as the key', async () => {
    await act(() => setLanguage('en'));
    render(<Greeting />);
    expect(screen.getByText('Hello, Dana!')).toBeInTheDocument();
    expect(screen.getByText('not.there')).toBeInTheDocument();
  });

  it('switching to Hebrew stores the choice and turns the document right-to-left', async () => {
    render(<Greeting />);
    await act(() => setLanguage('he'));
    expect(screen.getByText('שלום, Dana!')).toBeInTheDocument();
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('he');
    expect(localStorage.getItem('language')).toBe('he');
    await act(() => setLanguage('en'));
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('forcing English (login, register) leaves the stored choice alone and restores it after', async () => {
    await act(() => setLanguage('he'));
    await act(() => forceLanguage('en'));
    expect(i18n.language).toBe('en');
    expect(document.documentElement.dir).toBe('ltr');
    expect(localStorage.getItem('language')).toBe('he');
    await act(() => forceLanguage(null));
    expect(i18n.language).toBe('he');
  });
});
