import { ValueKind, fieldsOf, type FieldPlan, type PlanScope, type ValuePlan } from './plan.js';

/**
 * The JSON that kept rows (resolvers/support/kept-rows.ts) rendered to, per selection: a row is completed once per
 * compiled selection and its text spliced into every later answer, as REST serves its rendered pages. Keyed weakly on
 * both, so the text goes when the plan or the kept page does.
 */
const renderedBySelection = new WeakMap<FieldPlan[], WeakMap<object, Buffer>>();
const pureSelections = new WeakMap<FieldPlan[], boolean>();

export function renderedRow(fields: FieldPlan[], row: object): Buffer | undefined {
  return renderedBySelection.get(fields)?.get(row);
}

export function keepRenderedRow(fields: FieldPlan[], row: object, json: Buffer): void {
  let rendered = renderedBySelection.get(fields);
  if (!rendered) renderedBySelection.set(fields, (rendered = new WeakMap()));
  rendered.set(row, json);
}

/**
 * Whether a selection renders the same text for the same row in every operation: no resolver and no argument at any
 * depth (a property read and a scalar's serialize depend on the row alone), and no abstract type (its resolveType
 * gets the context). An isTypeOf checks the row itself: it passed on the first render. A property that is a method,
 * called with the context, is caught as the row renders (Execution.methodCalls).
 */
export function isPureSelection(scope: PlanScope, fields: FieldPlan[]): boolean {
  let pure = pureSelections.get(fields);
  if (pure === undefined) {
    // Assumed pure while its own fields are checked: a selection cannot reach itself, but stay finite if it could.
    pureSelections.set(fields, true);
    pure = fields.every((field) => field.definition === undefined || (field.resolve === undefined && field.definition.args.length === 0 && isPureValue(scope, field.value)));
    pureSelections.set(fields, pure);
  }
  return pure;
}

function isPureValue(scope: PlanScope, plan: ValuePlan): boolean {
  switch (plan.kind) {
    case ValueKind.NonNull:
      return isPureValue(scope, plan.inner);
    case ValueKind.List:
      return isPureValue(scope, plan.item);
    case ValueKind.Leaf:
      return true;
    case ValueKind.Object:
      return isPureSelection(scope, fieldsOf(scope, plan));
    case ValueKind.Abstract:
      return false;
  }
}
