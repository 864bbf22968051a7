import { Duration, Validations } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import type { BackgroundFunctionDef } from '../../contract/functions';
import type { Stage } from '../settings';
import { RouteFunction, type GrantTargets } from './lambda-function';

export interface BackgroundProps {
  stage: Stage;
  functions: readonly BackgroundFunctionDef[];
  targets: GrantTargets;
  environment: Record<string, string>;
}

/** The functions of contract/functions: each with its grants, fed by the table's stream or an EventBridge schedule. */
export class Background extends Construct {
  readonly functions: Record<string, RouteFunction> = {};

  constructor(scope: Construct, id: string, props: BackgroundProps) {
    super(scope, id);
    for (const def of props.functions) {
      const fn = new RouteFunction(this, `${def.id}-fn`, { route: def, stage: props.stage, environment: props.environment, targets: props.targets });
      this.functions[def.id] = fn;
      const t = def.trigger;
      if (t.kind === 'table-stream') {
        fn.function.addEventSource(
          new DynamoEventSource(props.targets.table, {
            startingPosition: lambda.StartingPosition.LATEST,
            batchSize: t.batchSize ?? 100,
            retryAttempts: t.maxRetries ?? 10,
            // A failing record is isolated by halving the batch, so one bad item does not hold back the rest.
            bisectBatchOnError: true,
          }),
        );
        Validations.of(fn.role).acknowledge({
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason: 'The DynamoDB event source mapping adds dynamodb:ListStreams, which has no resource-level permissions; reading records stays scoped to this table\'s stream.',
        });
      } else {
        new events.Rule(this, `${def.id}-schedule`, {
          description: def.description,
          schedule: events.Schedule.rate(Duration.minutes(t.everyMinutes)),
          targets: [new targets.LambdaFunction(fn.function, { retryAttempts: 2 })],
        });
      }
    }
  }
}
