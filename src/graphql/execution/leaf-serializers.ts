import { GraphQLBoolean, GraphQLID, GraphQLString, isEnumType, isSpecifiedScalarType, type GraphQLLeafType } from 'graphql';

/** A leaf type's serialize; undefined or null means the value cannot be represented (the caller raises graphql-js's error). */
export type LeafSerializer = (value: unknown) => unknown;

const serializers = new WeakMap<GraphQLLeafType, LeafSerializer>();
const MEMO_ENTRIES = 10_000;

/**
 * Serialization as the type defines it, done once per distinct input where that is safe: String, ID and Boolean
 * return such values as they are; custom scalars (graphql-scalars: pure functions of the value) remember what they
 * made of each string they were given, since kept pages hand them the same strings request after request
 * (DateTime parses and validates each one, then JSON.stringify formats the Date it returned).
 */
export function leafSerializer(type: GraphQLLeafType): LeafSerializer {
  let serializer = serializers.get(type);
  if (!serializer) serializers.set(type, (serializer = create(type)));
  return serializer;
}

function create(type: GraphQLLeafType): LeafSerializer {
  if (type === GraphQLString || type === GraphQLID) return (value) => (typeof value === 'string' ? value : type.serialize(value));
  if (type === GraphQLBoolean) return (value) => (typeof value === 'boolean' ? value : type.serialize(value));
  if (isEnumType(type) || isSpecifiedScalarType(type)) return (value) => type.serialize(value);
  const memo = new Map<string, unknown>();
  return (value) => {
    if (typeof value !== 'string') return asJson(type.serialize(value));
    const known = memo.get(value);
    if (known !== undefined) return known;
    const serialized = asJson(type.serialize(value));
    if (serialized !== null && typeof serialized !== 'object') {
      if (memo.size >= MEMO_ENTRIES) memo.clear();
      memo.set(value, serialized);
    }
    return serialized;
  };
}

/** A Date as the JSON text JSON.stringify would write for it (its toJSON). */
const asJson = (value: unknown) => (value instanceof Date ? value.toJSON() : value);
