import { Fragment } from 'react';
import { BidiLines, visibleText } from '@/lib/chat-core/message-display';

const URL_IN_TEXT = /(https?:\/\/[^\s<>"']+)/g;
const TRAILING = /[.,;:!?)\]]+$/;

/** One line's web addresses as links, each isolated left to right inside a Hebrew line. */
function LinkedLine({ line }: { line: string }) {
  const parts = line.split(URL_IN_TEXT);
  return (
    <>
      {parts.map((part, i) => {
        if (i % 2 === 0) return <Fragment key={i}>{part}</Fragment>;
        const trailing = TRAILING.exec(part)?.[0] ?? '';
        const url = trailing ? part.slice(0, -trailing.length) : part;
        return (
          <Fragment key={i}>
            <a href={url} target="_self" rel="noopener noreferrer" dir="ltr">
              {url}
            </a>
            {trailing}
          </Fragment>
        );
      })}
    </>
  );
}

/**
 * A message's text: each line in its own direction, without a redirect command left in it, with its web
 * addresses as links. Inside the embed frame links open in the same frame (spec part 1 §2: "embedded
 * links open in the same frame").
 */
export function MessageText({ text }: { text: string }) {
  return <BidiLines text={visibleText(text)} renderLine={(line) => <LinkedLine line={line} />} />;
}
