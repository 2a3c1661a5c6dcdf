import { type ComponentChild, render } from 'preact';

/** `react-dom/client` for the visitor pages on plain Preact (see react-on-preact.ts): a root renders into its element. */
export function createRoot(container: Element) {
  return {
    render: (children: ComponentChild) => render(children, container),
    unmount: () => render(null, container),
  };
}
