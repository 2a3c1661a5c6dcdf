import { boot } from './loader';

/** The entry of widget.js (vite.widget.config.ts): one IIFE that mounts the widget of its own script tag. */
boot();
