// TypeDoc plugin: names each module of the reference by its import specifier (`lodkit/three`)
// instead of its file path (`lodkit/dist/adapters/three`).
import { Converter } from 'typedoc';
import { publicEntries } from './entries.mjs';

/** @param {import('typedoc').Application} app */
export function load(app) {
  const names = new Map(publicEntries().map((e) => [`${e.packageName}:${e.packagePath}`, e.name]));
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.children ?? []) {
      const id = context.project.getSymbolIdFromReflection(module);
      const name = id && names.get(`${id.packageName}:${id.packagePath}`);
      if (name) module.name = name;
      else app.logger.error(`entryNames: no import specifier for module ${module.name} (${id?.packageName}:${id?.packagePath})`);
    }
  });
}
