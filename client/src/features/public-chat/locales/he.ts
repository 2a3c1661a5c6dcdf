import type { PublicChatLocale } from './en';

export const he: PublicChatLocale = {
  loadingAssistant: 'טוענים את העוזר...',
  retry: 'נסו שוב',
  invalidLink: 'קישור השיתוף אינו תקין או שפג תוקפו.',
  startFailed: 'לא ניתן להתחיל את השיחה.',
  sharedAssistant: 'עוזר משותף',
  chatSoon: 'שיחה עם עוזרים משותפים תגיע יחד עם יכולת הצ׳אט.',
  initializing: 'מאתחלים את הצ׳אט...',
  notFound: 'העוזר לא נמצא.',
  notFoundHint: 'בקשו מבעל האתר קישור חדש.',
  noToken: 'לא סופק אסימון שיתוף בכתובת',
  online: 'מחובר',
  hi: 'היי! אני {name}',
  invite: 'אני כאן כדי לעזור. שאלו אותי כל דבר.',
};
