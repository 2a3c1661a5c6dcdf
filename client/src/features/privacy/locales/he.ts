import type { en } from './en';

type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };

export const he: Shape<typeof en> = {
  retention: {
    title: 'כמה זמן אנחנו שומרים את המידע',
    conversations: 'שיחות: {days} ימים אחרי ההודעה האחרונה, ואז נמחקות לצמיתות',
    analytics: 'אנליטיקה: {months} חודשים בפירוט, ואחר כך ספירות בלבד (מי שאל מה נמחק)',
    securityLog: 'יומן אבטחה: {months} חודשים',
    payments: 'רישומי תשלום: {years} שנים (כנדרש בחוק), גם אחרי מחיקת החשבון',
    inactive: 'חשבון שלא נעשה בו שימוש {months} חודשים: נשלח אליך מייל, והחשבון יימחק 30 יום אחר כך',
    loading: 'טוען את תקופות השמירה...',
    failed: 'לא ניתן לטעון את תקופות השמירה.',
  },
  yourData: {
    title: 'המידע שלך',
    intro:
      'הורידו את כל מה שקשר שומר עליכם ועל העוזרים שלכם: חשבון, עוזרים, קבצים, שיחות והערוץ שלהן, אנליטיקה ותשלומים (קובץ zip של JSON ו-CSV).',
    download: 'הורדת המידע שלי',
    downloading: 'מכין את המידע שלך...',
    downloaded: 'המידע שלך הורד',
    failed: 'לא ניתן להכין את המידע. נסו שוב.',
    logTitle: 'יומן אבטחה',
    logEmpty: 'עדיין לא נרשם דבר.',
    kinds: {
      data_exported: 'הורדת את המידע שלך',
      conversation_erased: 'מבקר מחק את השיחה שלו',
      channel_contact_erased: 'לקוח ב-{channel} מחק את המידע שלו',
      retention_run: '{count} שיחות נמחקו אחרי {days} ימים (מדיניות שמירה)',
      inactivity_warning: 'נשלח מייל על חוסר פעילות',
    },
  },
  keptUntil: 'נשמרת עד {date}',
  deleteConversation: {
    button: 'מחיקת השיחה',
    confirm: 'למחוק את השיחה לצמיתות? לא ניתן לשחזר את ההודעות, לא על ידך ולא על ידי בעל העוזר.',
    yes: 'מחיקה',
    cancel: 'ביטול',
    deleting: 'מוחק...',
    deleted: 'השיחה נמחקה.',
    failed: 'לא ניתן למחוק את השיחה. נסו שוב.',
  },
};
