import { describe, expect, it } from 'vitest';
import { CHANNELS, setupBody, setupFailureText, setupProblem } from './channel-catalogue';

const entry = (id: string) => CHANNELS.find((c) => c.id === id)!;

describe('the channels’ setup forms', () => {
  it("names the spec's text when a required field is empty, whichever of the pair it is", () => {
    expect(setupProblem(entry('telegram'), { bot_token: '   ' })).toBe('botTokenRequired');
    expect(setupProblem(entry('whatsapp'), { access_token: 'EAAG', phone_number_id: '' })).toBe('whatsappRequired');
    expect(setupProblem(entry('instagram'), { page_access_token: '', instagram_account_id: '1784' })).toBe(
      'instagramRequired',
    );
    expect(setupProblem(entry('whatsapp'), { access_token: 'EAAG', phone_number_id: '1055' })).toBeNull();
  });

  it('sends the filled fields trimmed and leaves the empty optional ones out', () => {
    expect(
      setupBody(entry('whatsapp'), {
        access_token: ' EAAG ',
        phone_number_id: '1055',
        business_account_id: '',
        test_number: '  ',
      }),
    ).toEqual({ access_token: 'EAAG', phone_number_id: '1055' });
  });

  it('announces Messenger and Discord without a form', () => {
    expect(CHANNELS.filter((c) => c.comingSoon).map((c) => c.id)).toEqual(['messenger', 'discord']);
  });

  it('says the setup failure once, then the reason, whichever language the server text came in', () => {
    const en = 'Failed to setup Telegram integration';
    expect(setupFailureText(en, `${en}: Unauthorized`, en)).toBe(`${en}: Unauthorized`);
    expect(setupFailureText(en, 'Unauthorized', en)).toBe(`${en}: Unauthorized`);
    const he = 'הגדרת האינטגרציה עם טלגרם נכשלה';
    expect(setupFailureText(he, `${en}: Unauthorized`, en)).toBe(`${he}: Unauthorized`);
    expect(setupFailureText(he, `${he}: Unauthorized`, en)).toBe(`${he}: Unauthorized`);
    expect(setupFailureText(en, en, en)).toBe(en);
  });
});
