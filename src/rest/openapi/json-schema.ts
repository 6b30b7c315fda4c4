import {
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type GraphQLEnumType,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type SelectionSetNode,
} from 'graphql';

// JSON Schemas (OpenAPI 3.1 dialect) of what the REST face reads and writes. A response's schema
// is made from the very selection the route executes (SOFA's document after the REST names), so
// the document describes the wire: a type's component holds every field any route selects of
// it, and requires only the non-null ones that every route selects.

export type JsonSchema = Record<string, unknown>;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** A schema that also admits null: a union type, or beside a reference. */
export function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** Scalars as JSON carries them. `ID` is read as a string or an integer (route-input.ts) and written as a string. */
function scalarSchema(name: string, direction: 'input' | 'output'): JsonSchema {
  switch (name) {
    case 'String':
      return { type: 'string' };
    case 'ID':
      return direction === 'input' ? { type: ['string', 'integer'] } : { type: 'string' };
    case 'Int':
      return { type: 'integer', format: 'int32' };
    case 'Float':
      return { type: 'number' };
    case 'Boolean':
      return { type: 'boolean' };
    case 'DateTime':
      return { type: 'string', format: 'date-time' };
    default:
      // Custom scalars (JSON) are components, so clients see one named type.
      return ref(name);
  }
}

/** The components for custom scalars the schema uses, keyed by name. */
export function scalarComponents(types: readonly GraphQLNamedType[]): Record<string, JsonSchema> {
  const result: Record<string, JsonSchema> = {};
  for (const type of types) {
    if (!isScalarType(type) || ['String', 'ID', 'Int', 'Float', 'Boolean', 'DateTime'].includes(type.name)) continue;
    result[type.name] = { description: type.description ?? `Any JSON value (GraphQL scalar ${type.name}).` };
  }
  return result;
}

interface FieldSeen {
  /** Each distinct schema the field has had: a route may show a relation by its id (selection.ts). */
  schemas: Map<string, JsonSchema>;
  description?: string;
  nonNull: boolean;
  times: number;
}

interface ObjectSeen {
  type: GraphQLObjectType;
  times: number;
  fields: Map<string, FieldSeen>;
}

/** Collects components while routes are described; `components()` gives them once all are. */
export class SchemaCollector {
  private objects = new Map<string, ObjectSeen>();
  private inputs = new Map<string, JsonSchema>();
  private enums = new Map<string, JsonSchema>();
  private scalars = new Set<string>();

  /** The schema of a field's value as selected by `selection` (absent for leaves). */
  output(type: GraphQLOutputType, selection: SelectionSetNode | undefined): JsonSchema {
    if (isNonNullType(type)) return this.nonNullOutput(type.ofType, selection);
    return orNull(this.nonNullOutput(type, selection));
  }

  private nonNullOutput(type: GraphQLOutputType, selection: SelectionSetNode | undefined): JsonSchema {
    if (isListType(type)) return { type: 'array', items: this.output(type.ofType, selection) };
    if (isScalarType(type)) return this.scalar(type.name, 'output');
    if (isEnumType(type)) return this.enumRef(type);
    if (isObjectType(type)) {
      if (!selection) throw new Error(`OpenAPI: ${type.name} selected without fields`);
      this.selected(type, selection);
      return ref(type.name);
    }
    throw new Error(`OpenAPI: ${String(type)} (an abstract type) has no REST schema yet`);
  }

  private selected(type: GraphQLObjectType, selection: SelectionSetNode) {
    let seen = this.objects.get(type.name);
    if (!seen) this.objects.set(type.name, (seen = { type, times: 0, fields: new Map() }));
    seen.times++;
    const fields = type.getFields();
    for (const node of selection.selections) {
      if (node.kind !== Kind.FIELD) throw new Error(`OpenAPI: fragments in ${type.name}'s REST selection`);
      if (node.name.value === '__typename') continue;
      const field = fields[node.name.value];
      const name = node.alias?.value ?? node.name.value;
      const schema = this.output(field.type, node.selectionSet);
      const known = seen.fields.get(name);
      if (known) {
        known.times++;
        known.nonNull &&= isNonNullType(field.type);
        known.schemas.set(JSON.stringify(schema), schema);
      } else {
        const schemas = new Map([[JSON.stringify(schema), schema]]);
        seen.fields.set(name, { schemas, description: field.description ?? undefined, nonNull: isNonNullType(field.type), times: 1 });
      }
    }
  }

  /** The schema of an argument or input field. REST reads a JSON null as "not given", so nullable ones admit it. */
  input(type: GraphQLInputType): JsonSchema {
    if (isNonNullType(type)) return this.nonNullInput(type.ofType);
    return orNull(this.nonNullInput(type));
  }

  private nonNullInput(type: GraphQLInputType): JsonSchema {
    if (isListType(type)) return { type: 'array', items: this.input(type.ofType) };
    if (isScalarType(type)) return this.scalar(type.name, 'input');
    if (isEnumType(type)) return this.enumRef(type);
    if (isInputObjectType(type)) {
      if (!this.inputs.has(type.name)) {
        this.inputs.set(type.name, {}); // placed first: input types may refer to themselves
        const properties: Record<string, JsonSchema> = {};
        const required: string[] = [];
        for (const field of Object.values(type.getFields())) {
          properties[field.name] = withDescription(this.input(field.type), field.description);
          if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(field.name);
        }
        this.inputs.set(type.name, {
          type: 'object',
          ...(type.description ? { description: type.description } : {}),
          properties: sortedKeys(properties),
          ...(required.length ? { required: required.sort() } : {}),
          additionalProperties: false,
        });
      }
      return ref(type.name);
    }
    throw new Error(`OpenAPI: ${String(type)} is no input type`);
  }

  private scalar(name: string, direction: 'input' | 'output') {
    const schema = scalarSchema(name, direction);
    if (schema.$ref) this.scalars.add(name);
    return schema;
  }

  private enumRef(type: GraphQLEnumType) {
    if (!this.enums.has(type.name)) {
      this.enums.set(type.name, {
        type: 'string',
        enum: type.getValues().map((v) => v.name), // JSON carries the value's name
        ...(type.description ? { description: type.description } : {}),
      });
    }
    return ref(type.name);
  }

  usedScalars(): string[] {
    return [...this.scalars];
  }

  /** Every component collected, sorted by name. */
  components(extra: Record<string, JsonSchema>): Record<string, JsonSchema> {
    const result: Record<string, JsonSchema> = { ...extra };
    for (const [name, seen] of this.objects) {
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [field, info] of seen.fields) {
        const schemas = [...info.schemas.values()];
        properties[field] = withDescription(schemas.length === 1 ? schemas[0] : { anyOf: schemas }, info.description);
        if (info.nonNull && info.times === seen.times) required.push(field);
      }
      result[name] = {
        type: 'object',
        ...(seen.type.description ? { description: seen.type.description } : {}),
        properties: sortedKeys(properties),
        ...(required.length ? { required: required.sort() } : {}),
        additionalProperties: false,
      };
    }
    for (const [name, schema] of [...this.inputs, ...this.enums]) result[name] = schema;
    return sortedKeys(result);
  }
}

export function withDescription(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  if (!description) return schema;
  // Beside a $ref, 3.1 keeps sibling keywords; a description there is shown by every tool.
  return { ...schema, description };
}

export function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
