import { Fragment } from 'react';

const URL_IN_TEXT = /(https?:\/\/[^\s<>"']+)/g;
const TRAILING = /[.,;:!?)\]]+$/;

/**
 * A message's text with its web addresses as links. Inside the embed frame links open in the same
 * frame (spec part 1 §2: "embedded links open in the same frame").
 */
export function MessageText({ text }: { text: string }) {
  const parts = text.split(URL_IN_TEXT);
  return (
    <>
      {parts.map((part, i) => {
        if (i % 2 === 0) return <Fragment key={i}>{part}</Fragment>;
        const trailing = TRAILING.exec(part)?.[0] ?? '';
        const url = trailing ? part.slice(0, -trailing.length) : part;
        return (
          <Fragment key={i}>
            <a href={url} target="_self" rel="noopener noreferrer">
              {url}
            </a>
            {trailing}
          </Fragment>
        );
      })}
    </>
  );
}
