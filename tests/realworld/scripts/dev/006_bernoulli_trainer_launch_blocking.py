import torch
import torch.optim as optim
from torch.distributions import Binomial

from datetime import datetime
import os
import json

from BernoulliDiffusion.utils.plotting_utils import plot_loss, plot_evolution, plot_validation_proportions

import os
os.environ["CUDA_LAUNCH_BLOCKING"] = "1"

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

class Trainer:
    '''Given a diffusion model and config file, this class
    trains the model from scratch and then saves the result.'''
    def __init__(self, working_dir, cfg, diffusion_model, data_loader, validator=None):
        self.working_dir = working_dir
        self.cfg = cfg
        self.diffusion_model = diffusion_model
        self.data_loader = data_loader
        self.validator = validator

        self.optimizer = optim.Adam(diffusion_model.parameters(), lr=cfg.lr, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, amsgrad=False)

        self.result_dir = None

        self.initialize_output_dir_()
        self.initialize_new_training_()

        self.example_seed = self.data_loader.generate_random_data()


    def initialize_output_dir_(self):
        '''Creates the file where results of training will be stored'''
        now = datetime.now().strftime('d_%m_%d_%Y_t_%H_%M')
        all_results_dir = os.path.join(self.working_dir, 'results')
        self.result_dir = os.path.join(all_results_dir, now)
        if not os.path.isdir(all_results_dir):
            os.mkdir(all_results_dir)
        if not os.path.isdir(self.result_dir):
            os.mkdir(self.result_dir)
        if not os.path.isdir(os.path.join(self.result_dir, 'checkpoints')):
            os.mkdir(os.path.join(self.result_dir, 'checkpoints'))

    def get_output_dir(self):
        return self.result_dir

    def initialize_new_training_(self):
        # Zero grad, input a random tensor, then backprop
        self.diffusion_model.zero_grad()
        input = self.data_loader.generate_random_data()
        out = self.diffusion_model(input)
        out.backward()

        # reset all metrics of training
        self.losses = []
        self.examples_per_epoch = []

        self.proportions = {'train': [], 'val':[], 'other':[]}

    def train_step_(self):
        '''Actual training occurs here'''
        avg_loss = 0.0
        batch_count = 0
        batch = self.data_loader.next_minibatch()
        while batch is not None:
            self.optimizer.zero_grad()
            output = self.diffusion_model(batch)
            output.backward()
            torch.nn.utils.clip_grad_norm_(self.diffusion_model.parameters(), self.cfg.clip_thresh)
            self.optimizer.step()
            batch = self.data_loader.next_minibatch()
            batch_count += 1
            avg_loss += output.detach()
        avg_loss = avg_loss / batch_count
        self.losses.append(avg_loss.item())
        return avg_loss
