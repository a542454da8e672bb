import type { ComponentType } from 'react';

/**
 * How a detail section or a tab draws another schema inside it: SchemaById, handed in as a prop
 * by SchemaView. The detail and tabs renderers do not import SchemaById themselves: it loads
 * them (views.tsx), so that import would close a circle.
 */
export type EmbedSchema = ComponentType<{ id: string; params: Record<string, unknown> }>;
