import { Duration, Validations } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { BackgroundFunctionDef } from '../../contract/functions';
import { filterCriteriaProblem } from '../../contract/stream-filters';
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
  /**
   * Where a stream batch that failed every retry, or a scheduled run EventBridge could not deliver, is set aside
   * (its record names the stream position or the event), instead of being dropped; an alarm watches it.
   */
  readonly deadLetters: sqs.Queue;

  constructor(scope: Construct, id: string, props: BackgroundProps) {
    super(scope, id);
    this.deadLetters = new sqs.Queue(this, 'DeadLetters', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetters).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'This queue is itself the dead-letter queue of the stream and schedule functions.' });
    for (const def of props.functions) {
      const fn = new RouteFunction(this, `${def.id}-fn`, { route: def, stage: props.stage, environment: props.environment, targets: props.targets });
      this.functions[def.id] = fn;
      const t = def.trigger;
      if (t.kind === 'table-stream') {
        // Synth refuses a pattern Lambda would refuse at deploy (the local stream reader refuses the same).
        const problem = filterCriteriaProblem(t.filters ?? []);
        if (problem) throw new Error(`${def.id}: invalid FilterCriteria: ${problem}`);
        fn.function.addEventSource(
          new DynamoEventSource(props.targets.table, {
            startingPosition: lambda.StartingPosition.LATEST,
            batchSize: t.batchSize ?? 100,
            retryAttempts: t.maxRetries ?? 10,
            // The handlers name the records that failed (partial batch responses), so the records before them are
            // done; a batch that throws is halved, so one bad item does not hold back the rest.
            reportBatchItemFailures: true,
            bisectBatchOnError: true,
            onFailure: new SqsDlq(this.deadLetters),
            ...(t.filters?.length ? { filters: t.filters.map((p) => lambda.FilterCriteria.filter(p as Record<string, unknown>)) } : {}),
            ...(t.parallelization ? { parallelizationFactor: t.parallelization } : {}),
            ...(t.maxRecordAgeSeconds ? { maxRecordAge: Duration.seconds(t.maxRecordAgeSeconds) } : {}),
          }),
        );
        // The event source's grant includes dynamodb:ListStreams, which IAM only allows on "*" (the stream's own
        // actions are on the table's stream ARN).
        Validations.of(fn).acknowledge({
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason: 'dynamodb:ListStreams, granted by the DynamoDB event source, takes no resource; every other action is on the stream ARN.',
        });
      } else {
        new events.Rule(this, `${def.id}-schedule`, {
          description: def.description,
          schedule: events.Schedule.rate(Duration.minutes(t.everyMinutes)),
          targets: [new targets.LambdaFunction(fn.function, { retryAttempts: 2, deadLetterQueue: this.deadLetters })],
        });
      }
    }
  }
}
