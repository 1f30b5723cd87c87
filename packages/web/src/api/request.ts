import type { z } from 'zod';

type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];
type UndefinedKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];
type Omittable<S extends z.ZodType> = OptionalKeys<z.input<S>> | UndefinedKeys<z.output<S>>;
type Flat<T> = { [K in keyof T]: T[K] };

/**
 * What the web sends for a core request schema: the type each field is parsed to, and
 * optional where the server may go without it (optional, defaulted or allowed undefined).
 * `z.input` alone types the text-tolerant fields (`intField`, `boolField`) as unknown; this
 * keeps them number and boolean, and a field renamed in core fails the web build.
 */
export type RequestOf<S extends z.ZodType> = Flat<
  Omit<z.output<S>, Omittable<S>> & Partial<Pick<z.output<S>, Omittable<S> & keyof z.output<S>>>
>;
